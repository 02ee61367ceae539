// The vectorized CPU path's unit of work: a batch of up to kBatchRows rows, each value
// column a typed array (no Value per row), and a selection of the rows still active.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "compiler/common/types.h"
#include "compiler/common/value.h"

namespace tally {

// Large enough to spread one virtual call per operator over many rows, small enough that
// a batch's columns stay in L1/L2.
inline constexpr size_t kBatchRows = 2048;

// How a batch column holds its values: integers, DATEs, BOOLEANs, string ids and DECIMALs
// proven to fit 64 bits in I64; other DECIMALs and HUGEINTs in I128; REAL and DOUBLE in F64.
enum class Phys : uint8_t { I64, I128, F64 };

// One column of a batch. Rows outside the selection it was computed for hold garbage;
// null[] is read only when has_nulls is set.
struct Vec {
  Phys phys = Phys::I64;
  std::vector<int64_t> i;
  std::vector<int128> w;
  std::vector<double> f;
  std::vector<uint8_t> null;  // 1: NULL
  bool has_nulls = false;

  explicit Vec(Phys p = Phys::I64) : phys(p), null(kBatchRows, 0) {
    if (p == Phys::I64) i.assign(kBatchRows, 0);
    if (p == Phys::I128) w.assign(kBatchRows, 0);
    if (p == Phys::F64) f.assign(kBatchRows, 0);
  }
  bool is_null(size_t r) const { return has_nulls && null[r]; }
  // The row's value as the row evaluator holds it (`type` tells DECIMAL from integer).
  Value value(size_t r, const Type& type) const;
  // Stores a row evaluator value (not NULL) in this column's representation.
  void store(size_t r, const Value& v, const Type& type);
  // Copies row r of `from` (same SQL type, any representation), NULL flag included.
  void copy_row(size_t r, const Vec& from);
};

// The active rows of a batch: 0..n-1 when dense, else idx[0..n-1] in increasing order.
struct Sel {
  const uint16_t* idx = nullptr;
  size_t n = 0;
  bool dense = true;

  uint32_t operator[](size_t k) const { return dense ? static_cast<uint32_t>(k) : idx[k]; }
};

// Calls f(row) for every active row, in order; the dense loop is the one compilers vectorize.
template <typename F>
inline void for_rows(const Sel& s, F&& f) {
  if (s.dense) {
    for (uint32_t r = 0; r < s.n; ++r) f(r);
  } else {
    for (size_t k = 0; k < s.n; ++k) f(static_cast<uint32_t>(s.idx[k]));
  }
}

// A selection's rows kept in its own buffer, for operators that narrow what they evaluate.
struct SelBuffer {
  std::vector<uint16_t> rows = std::vector<uint16_t>(kBatchRows);
  size_t n = 0;
  Sel sel() const { return {rows.data(), n, false}; }
  void push(uint32_t r) { rows[n++] = static_cast<uint16_t>(r); }
};

// The representation of a value of `type` whose unscaled magnitude fits 64 bits or not.
inline Phys phys_of(const Type& type, bool fits_64) {
  if (type.is_float()) return Phys::F64;
  if (type.is_hugeint()) return Phys::I128;
  if ((type.is_decimal() || type.is_interval()) && !fits_64) return Phys::I128;
  return Phys::I64;
}

}  // namespace tally
