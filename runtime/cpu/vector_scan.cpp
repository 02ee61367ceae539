#include "runtime/cpu/vector_scan.h"

#include <cstring>

namespace tally {

namespace {

template <typename T>
inline T load(const uint8_t* bytes, size_t row) {
  T v;
  std::memcpy(&v, bytes + row * sizeof(T), sizeof(T));
  return v;
}

template <typename T, typename Out>
void plain_values(const uint8_t* bytes, size_t begin, const Sel& sel, Out* out) {
  for_rows(sel, [&](uint32_t r) { out[r] = static_cast<Out>(load<T>(bytes, begin + r)); });
}

void plain_ints(const Column& c, size_t begin, const Sel& sel, Vec& out) {
  const uint8_t* bytes = c.plain_bytes().data();
  switch (physical_width(c.type())) {
    case 1:
      return plain_values<int8_t>(bytes, begin, sel, out.i.data());
    case 2:
      return plain_values<int16_t>(bytes, begin, sel, out.i.data());
    case 4:
      return plain_values<int32_t>(bytes, begin, sel, out.i.data());
    case 8:
      return plain_values<int64_t>(bytes, begin, sel, out.i.data());
    default:
      if (out.phys == Phys::I128) return plain_values<int128>(bytes, begin, sel, out.w.data());
      return plain_values<int128>(bytes, begin, sel, out.i.data());
  }
}

// Frame of reference: base + the `bits`-bit field of each row. The words end with a zero
// word, so the two words a field may straddle can always both be read.
template <typename Out>
void packed_values(const Column& c, size_t begin, const Sel& sel, Out* out) {
  const uint64_t* words = c.packed_words().data();
  const int bits = c.bits();
  const int64_t base = c.base();
  if (bits == 0) {
    for_rows(sel, [&](uint32_t r) { out[r] = base; });
    return;
  }
  const uint64_t mask = bits == 64 ? ~uint64_t{0} : (uint64_t{1} << bits) - 1;
  const auto width = static_cast<size_t>(bits);
  for_rows(sel, [&](uint32_t r) {
    const size_t bit = (begin + r) * width;
    const size_t word = bit >> 6;
    using u128 = unsigned __int128;
    const u128 pair = (static_cast<u128>(words[word + 1]) << 64) | words[word];
    const auto field = static_cast<uint64_t>(pair >> (bit & 63)) & mask;
    out[r] = static_cast<Out>(static_cast<int64_t>(static_cast<uint64_t>(base) + field));
  });
}

void validity(const Column& c, size_t begin, const Sel& sel, Vec& out) {
  out.has_nulls = false;
  if (!c.has_nulls()) return;
  const uint64_t* words = c.validity_words().data();
  uint8_t any = 0;
  for_rows(sel, [&](uint32_t r) {
    const size_t row = begin + r;
    const auto n = static_cast<uint8_t>(((words[row >> 6] >> (row & 63)) & 1) ^ 1);
    out.null[r] = n;
    any |= n;
  });
  out.has_nulls = any != 0;
}

}  // namespace

BatchDecoder::BatchDecoder(const BoundSelect& query, const Table& table) {
  for (const auto& sc : query.scan) {
    const Column* c = table.columns[static_cast<size_t>(sc.table_column)].get();
    columns_.push_back(c);
    phys_.push_back(phys_of(c->type(), !c->type().is_wide()));
  }
}

void BatchDecoder::decode(size_t c, size_t begin, const Sel& sel, Vec& out) const {
  const Column& column = *columns_[c];
  validity(column, begin, sel, out);
  if (column.encoding() != Encoding::Plain) {
    if (out.phys == Phys::I128) return packed_values(column, begin, sel, out.w.data());
    return packed_values(column, begin, sel, out.i.data());
  }
  if (column.type().id == TypeId::Real) {
    return plain_values<float>(column.plain_bytes().data(), begin, sel, out.f.data());
  }
  if (column.type().is_float()) {
    return plain_values<double>(column.plain_bytes().data(), begin, sel, out.f.data());
  }
  plain_ints(column, begin, sel, out);
}

double BatchDecoder::encoded_bytes_per_row() const {
  double bytes = 0;
  for (const Column* c : columns_) {
    if (c->size() > 0) bytes += static_cast<double>(c->encoded_bytes()) / c->size();
  }
  return bytes;
}

}  // namespace tally
