// A single SQL value as the engines see it. The SQL type travels separately (expressions
// and columns are typed), so a Value is only the payload plus a NULL flag:
//   BOOLEAN, SMALLINT, INTEGER, BIGINT, DATE  -> i (BOOLEAN is 0/1, DATE is days)
//   REAL, DOUBLE                              -> f
//   DECIMAL(p,s) of any precision             -> d, the unscaled 128-bit integer
//   VARCHAR/CHAR                              -> i, an id into the owning StringHeap
#pragma once

#include <cstdint>

namespace tally {

using int128 = __int128;

struct Value {
  union {
    int64_t i;
    double f;
    int128 d;
  };
  bool null = true;

  Value() : d(0) {}
  static Value make_null() { return Value(); }
  static Value from_int(int64_t v) {
    Value x;
    x.d = 0;
    x.i = v;
    x.null = false;
    return x;
  }
  static Value from_double(double v) {
    Value x;
    x.d = 0;
    x.f = v;
    x.null = false;
    return x;
  }
  static Value from_decimal(int128 v) {
    Value x;
    x.d = v;
    x.null = false;
    return x;
  }
  static Value from_bool(bool v) { return from_int(v ? 1 : 0); }
};

}  // namespace tally
