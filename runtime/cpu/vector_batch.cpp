#include "runtime/cpu/vector_batch.h"

namespace tally {

Value Vec::value(size_t r, const Type& type) const {
  if (is_null(r)) return Value();
  switch (phys) {
    case Phys::F64:
      return Value::from_double(f[r]);
    case Phys::I128:
      return Value::from_decimal(w[r]);
    case Phys::I64:
      break;
  }
  return type.is_decimal() ? Value::from_decimal(i[r]) : Value::from_int(i[r]);
}

void Vec::store(size_t r, const Value& v, const Type& type) {
  switch (phys) {
    case Phys::F64:
      f[r] = v.f;
      return;
    case Phys::I128:
      w[r] = type.is_exact128() ? v.d : v.i;
      return;
    case Phys::I64:
      // An I64 DECIMAL is one proven to fit 64 bits, so the narrowing keeps the value.
      i[r] = type.is_decimal() ? static_cast<int64_t>(v.d) : v.i;
      return;
  }
}

void Vec::copy_row(size_t r, const Vec& from) {
  null[r] = from.is_null(r);
  if (null[r]) {
    has_nulls = true;
    return;
  }
  switch (phys) {
    case Phys::F64:
      f[r] = from.f[r];
      return;
    case Phys::I128:
      w[r] = from.phys == Phys::I128 ? from.w[r] : from.i[r];
      return;
    case Phys::I64:
      // Narrowing happens only where the value is proven to fit (see phys_of).
      i[r] = from.phys == Phys::I128 ? static_cast<int64_t>(from.w[r]) : from.i[r];
      return;
  }
}

}  // namespace tally
