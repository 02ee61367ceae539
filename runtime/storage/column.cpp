#include "runtime/storage/column.h"

#include <algorithm>
#include <bit>
#include <cstring>
#include <limits>
#include <numeric>

#include "compiler/common/error.h"
#include "runtime/storage/bit_packing.h"

namespace tally {

namespace {

// Which builder vector holds a type's values.
enum class Payload { Ints, Wides, Doubles, Strings };

Payload payload_of(const Type& type) {
  if (type.is_string()) return Payload::Strings;
  if (type.is_float()) return Payload::Doubles;
  if (type.is_wide()) return Payload::Wides;
  return Payload::Ints;
}

template <typename T>
T load(std::span<const uint8_t> bytes, size_t row) {
  T v;
  std::memcpy(&v, bytes.data() + row * sizeof(T), sizeof(T));
  return v;
}

int64_t saturate(int128 v) {
  constexpr int64_t lo = std::numeric_limits<int64_t>::min();
  constexpr int64_t hi = std::numeric_limits<int64_t>::max();
  return v < lo ? lo : v > hi ? hi : static_cast<int64_t>(v);
}

}  // namespace

const char* encoding_name(Encoding e) {
  switch (e) {
    case Encoding::Plain:
      return "plain";
    case Encoding::BitPacked:
      return "bit-packed";
    case Encoding::Dictionary:
      return "dictionary";
  }
  return "?";
}

// ---- Column ----

int64_t Column::plain_int(size_t row) const {
  switch (physical_width(type_)) {
    case 1:
      return load<int8_t>(plain_bytes(), row);
    case 2:
      return load<int16_t>(plain_bytes(), row);
    case 4:
      return load<int32_t>(plain_bytes(), row);
    case 8:
      return load<int64_t>(plain_bytes(), row);
    default:
      return static_cast<int64_t>(load<int128>(plain_bytes(), row));
  }
}

int128 Column::get_wide(size_t row) const {
  if (type_.is_wide()) return load<int128>(plain_bytes(), row);
  return get_int(row);
}

double Column::get_double(size_t row) const {
  if (type_.id == TypeId::Real) return load<float>(plain_bytes(), row);
  return load<double>(plain_bytes(), row);
}

Value Column::get_value(size_t row) const {
  if (!is_valid(row)) return Value::make_null();
  if (type_.is_float()) return Value::from_double(get_double(row));
  if (type_.is_exact128() || type_.is_interval()) return Value::from_decimal(get_wide(row));
  return Value::from_int(get_int(row));
}

size_t Column::encoded_bytes() const {
  size_t bytes = validity_.size() * 8 + plain_bytes().size() + packed_.size() * 8;
  for (const auto& s : dictionary_) bytes += s.size();
  return bytes;
}

ColumnPtr Column::borrow_plain(Type type, std::span<const uint8_t> bytes,
                               std::vector<uint64_t> validity,
                               std::shared_ptr<const void> keep_alive) {
  int width = physical_width(type);
  if (type.is_string() || width == 0 || bytes.size() % static_cast<size_t>(width) != 0 ||
      !keep_alive) {
    throw Error(ErrorKind::Internal, "borrow_plain: not a plain " + type.to_string() + " buffer");
  }
  auto column = std::make_shared<Column>();
  column->type_ = type;
  column->size_ = bytes.size() / static_cast<size_t>(width);
  if (!validity.empty() && validity.size() != (column->size_ + 63) / 64) {
    throw Error(ErrorKind::Internal, "borrow_plain: validity of the wrong size");
  }
  column->encoding_ = Encoding::Plain;
  column->validity_ = std::move(validity);
  column->borrowed_ = bytes;
  column->borrowed_keep_alive_ = std::move(keep_alive);
  // Statistics as ColumnBuilder computes them: NULL count, and the range of the
  // integer-like payloads (the planners size GROUP BY domains from it).
  bool any = false;
  for (size_t row = 0; row < column->size_; ++row) {
    if (!column->is_valid(row)) {
      ++column->null_count_;
      continue;
    }
    if (type.is_float() || type.is_wide()) continue;  // wide: scan_wide_range
    int64_t v = column->get_int(row);
    column->min_ = any ? std::min(column->min_, v) : v;
    column->max_ = any ? std::max(column->max_, v) : v;
    any = true;
  }
  column->scan_wide_range();
  return column;
}

void Column::scan_wide_range() {
  if (!type_.is_wide()) return;
  bool any = false;
  for (size_t row = 0; row < size_; ++row) {
    if (!is_valid(row)) continue;
    const int128 v = get_wide(row);
    wide_min_ = any ? std::min(wide_min_, v) : v;
    wide_max_ = any ? std::max(wide_max_, v) : v;
    any = true;
  }
  min_ = saturate(wide_min_);
  max_ = saturate(wide_max_);
}

// ---- ColumnBuilder: appends ----

ColumnBuilder::ColumnBuilder(Type type) : type_(type) {}

void ColumnBuilder::reserve(size_t n) {
  switch (payload_of(type_)) {
    case Payload::Ints:
    case Payload::Strings:
      ints_.reserve(n);
      break;
    case Payload::Wides:
      wides_.reserve(n);
      break;
    case Payload::Doubles:
      doubles_.reserve(n);
      break;
  }
}

// The bitmap is only materialised at the first NULL: columns without NULLs pay nothing.
void ColumnBuilder::start_validity() {
  validity_.assign((size_ + 63) / 64, ~uint64_t{0});
  if (size_ % 64) validity_.back() = (uint64_t{1} << (size_ % 64)) - 1;
}

void ColumnBuilder::mark(bool valid) {
  if (valid && nulls_ == 0) {
    ++size_;
    return;
  }
  if (nulls_ == 0) start_validity();
  if (size_ % 64 == 0) validity_.push_back(0);
  if (valid) {
    validity_.back() |= uint64_t{1} << (size_ % 64);
  } else {
    ++nulls_;
  }
  ++size_;
}

void ColumnBuilder::append_null() {
  mark(false);
  switch (payload_of(type_)) {
    case Payload::Ints:
    case Payload::Strings:
      ints_.push_back(0);
      break;
    case Payload::Wides:
      wides_.push_back(0);
      break;
    case Payload::Doubles:
      doubles_.push_back(0);
      break;
  }
}

void ColumnBuilder::append_int(int64_t v) {
  if (payload_of(type_) == Payload::Wides) return append_wide(v);
  if (payload_of(type_) != Payload::Ints) {
    throw Error(ErrorKind::Internal, "append_int on a " + type_.to_string() + " column");
  }
  mark(true);
  ints_.push_back(v);
}

void ColumnBuilder::append_wide(int128 v) {
  if (payload_of(type_) == Payload::Ints) {
    if (saturate(v) != v) {
      throw Error(ErrorKind::Internal, "value out of range for " + type_.to_string());
    }
    return append_int(static_cast<int64_t>(v));
  }
  if (payload_of(type_) != Payload::Wides) {
    throw Error(ErrorKind::Internal, "append_wide on a " + type_.to_string() + " column");
  }
  mark(true);
  wides_.push_back(v);
}

void ColumnBuilder::append_double(double v) {
  if (payload_of(type_) != Payload::Doubles) {
    throw Error(ErrorKind::Internal, "append_double on a " + type_.to_string() + " column");
  }
  mark(true);
  // REAL is stored as float: round now so that every reader sees the same value.
  doubles_.push_back(type_.id == TypeId::Real ? static_cast<float>(v) : v);
}

void ColumnBuilder::append_string(std::string_view s) {
  if (payload_of(type_) != Payload::Strings) {
    throw Error(ErrorKind::Internal, "append_string on a " + type_.to_string() + " column");
  }
  mark(true);
  ints_.push_back(strings_.intern(s));
}

void ColumnBuilder::append_value(const Value& v, const StringHeap* strings) {
  if (v.null) return append_null();
  switch (payload_of(type_)) {
    case Payload::Ints:
      if (type_.is_decimal()) return append_wide(v.d);
      return append_int(v.i);
    case Payload::Wides:
      return append_wide(v.d);
    case Payload::Doubles:
      return append_double(v.f);
    case Payload::Strings:
      if (!strings) throw Error(ErrorKind::Internal, "append_value: no string heap");
      return append_string(strings->get(v.i));
  }
}

void ColumnBuilder::append_ints(std::span<const int64_t> values) {
  if (payload_of(type_) != Payload::Ints) {
    for (int64_t v : values) append_int(v);
    return;
  }
  ints_.insert(ints_.end(), values.begin(), values.end());
  if (nulls_ == 0) {
    size_ += values.size();
    return;
  }
  for (size_t i = 0; i < values.size(); ++i) mark(true);
}

void ColumnBuilder::append_doubles(std::span<const double> values) {
  for (double v : values) append_double(v);
}

void ColumnBuilder::append_pooled_strings(std::span<const std::string> pool,
                                          std::span<const uint32_t> indexes) {
  if (payload_of(type_) != Payload::Strings) {
    throw Error(ErrorKind::Internal, "append_string on a " + type_.to_string() + " column");
  }
  std::vector<int64_t> ids(pool.size(), -1);
  ints_.reserve(ints_.size() + indexes.size());
  for (uint32_t index : indexes) {
    if (index >= pool.size()) {
      throw Error(ErrorKind::Internal, "append_pooled_strings: index outside the pool");
    }
    int64_t& id = ids[index];
    if (id < 0) id = strings_.intern(pool[index]);
    mark(true);
    ints_.push_back(id);
  }
}

void ColumnBuilder::append_builder(ColumnBuilder&& other) {
  if (!type_.same_as(other.type_)) {
    throw Error(ErrorKind::Internal,
                "append_builder: " + other.type_.to_string() + " into " + type_.to_string());
  }
  if (other.nulls_ > 0 || nulls_ > 0) {
    if (nulls_ == 0) start_validity();
    if (other.nulls_ == 0) other.start_validity();
    append_bits(validity_, size_, other.validity_, other.size_);
  }
  if (payload_of(type_) == Payload::Strings) {
    std::vector<int64_t> ids(other.strings_.size());
    for (uint32_t i = 0; i < ids.size(); ++i) ids[i] = strings_.intern(other.strings_.get(i));
    // NULL rows hold id 0, which maps to some valid id: their payload is ignored.
    for (int64_t& v : other.ints_) v = ids.empty() ? 0 : ids[static_cast<size_t>(v)];
  }
  ints_.insert(ints_.end(), other.ints_.begin(), other.ints_.end());
  wides_.insert(wides_.end(), other.wides_.begin(), other.wides_.end());
  doubles_.insert(doubles_.end(), other.doubles_.begin(), other.doubles_.end());
  size_ += other.size_;
  nulls_ += other.nulls_;
  other = ColumnBuilder(other.type_);
}

// ---- ColumnBuilder: finish ----

namespace {

// Smallest and largest non-NULL value of some parts; {0, 0} when there is none.
template <typename T>
struct Range {
  bool any = false;
  T lo{}, hi{};
  void add(T v) {
    if (!any) lo = hi = v, any = true;
    lo = v < lo ? v : lo;
    hi = v > hi ? v : hi;
  }
};

template <typename T>
void add_range(Range<T>& range, const std::vector<T>& values,
               const std::vector<uint64_t>& validity) {
  if (validity.empty()) {
    // Branch-free form for the common case: it vectorises.
    if (values.empty()) return;
    T lo = values[0], hi = values[0];
    for (T v : values) {
      lo = v < lo ? v : lo;
      hi = v > hi ? v : hi;
    }
    range.add(lo);
    range.add(hi);
    return;
  }
  for (size_t i = 0; i < values.size(); ++i) {
    if ((validity[i >> 6] >> (i & 63)) & 1) range.add(values[i]);
  }
}

template <typename T, typename From>
void store_at(std::vector<uint8_t>& bytes, size_t first_row, const std::vector<From>& values) {
  T* out = reinterpret_cast<T*>(bytes.data()) + first_row;
  for (size_t i = 0; i < values.size(); ++i) out[i] = static_cast<T>(values[i]);
}

}  // namespace

ColumnPtr ColumnBuilder::finish(bool allow_compression) {
  return finish_parts(std::span<ColumnBuilder>(this, 1), allow_compression);
}

ColumnPtr ColumnBuilder::finish_parts(std::span<ColumnBuilder> parts, bool allow_compression) {
  if (parts.empty()) throw Error(ErrorKind::Internal, "finish_parts: no parts");
  auto column = std::make_shared<Column>();
  column->type_ = parts[0].type_;
  for (auto& part : parts) {
    if (!part.type_.same_as(column->type_)) {
      throw Error(ErrorKind::Internal, "finish_parts: mixed column types");
    }
    column->size_ += part.size_;
    column->null_count_ += part.nulls_;
  }
  join_validity(parts, *column);
  switch (payload_of(column->type_)) {
    case Payload::Ints:
      finish_ints(parts, allow_compression, *column);
      break;
    case Payload::Strings:
      finish_strings(parts, *column);
      break;
    default:
      finish_plain(parts, *column);
      break;
  }
  for (auto& part : parts) part = ColumnBuilder(column->type_);
  return column;
}

void ColumnBuilder::join_validity(std::span<ColumnBuilder> parts, Column& column) {
  if (column.null_count_ == 0) return;
  if (parts.size() == 1) {
    column.validity_ = parts[0].validity_;
    return;
  }
  size_t rows = 0;
  for (auto& part : parts) {
    if (part.nulls_ == 0) part.start_validity();
    append_bits(column.validity_, rows, part.validity_, part.size_);
    rows += part.size_;
  }
}

void ColumnBuilder::finish_ints(std::span<ColumnBuilder> parts, bool allow_compression,
                                Column& column) {
  Range<int64_t> range;
  for (auto& part : parts) add_range(range, part.ints_, part.validity_);
  column.min_ = range.lo;
  column.max_ = range.hi;
  int bits = bits_needed(static_cast<uint64_t>(range.hi) - static_cast<uint64_t>(range.lo));
  int width = physical_width(column.type_);
  size_t row = 0;
  if (allow_compression && bits < width * 8) {
    column.encoding_ = Encoding::BitPacked;
    column.base_ = range.lo;
    column.bits_ = bits;
    column.packed_.assign(packed_word_count(column.size_, bits), 0);
    for (auto& part : parts) {
      pack_bits(column.packed_.data(), row * static_cast<size_t>(bits), part.ints_, range.lo, bits,
                part.validity_);
      row += part.size_;
    }
    return;
  }
  column.encoding_ = Encoding::Plain;
  column.plain_.resize(column.size_ * static_cast<size_t>(width));
  for (auto& part : parts) {
    switch (width) {
      case 1:
        store_at<int8_t>(column.plain_, row, part.ints_);
        break;
      case 2:
        store_at<int16_t>(column.plain_, row, part.ints_);
        break;
      case 4:
        store_at<int32_t>(column.plain_, row, part.ints_);
        break;
      default:
        store_at<int64_t>(column.plain_, row, part.ints_);
        break;
    }
    row += part.size_;
  }
}

// REAL, DOUBLE, wide DECIMAL and INTERVAL: native values, NULL rows hold 0.
void ColumnBuilder::finish_plain(std::span<ColumnBuilder> parts, Column& column) {
  column.encoding_ = Encoding::Plain;
  column.plain_.resize(column.size_ * static_cast<size_t>(physical_width(column.type_)));
  Range<int128> range;
  size_t row = 0;
  for (auto& part : parts) {
    if (column.type_.is_wide()) {
      add_range(range, part.wides_, part.validity_);
      store_at<int128>(column.plain_, row, part.wides_);
    } else if (column.type_.id == TypeId::Real) {
      store_at<float>(column.plain_, row, part.doubles_);
    } else {
      store_at<double>(column.plain_, row, part.doubles_);
    }
    row += part.size_;
  }
  column.min_ = saturate(range.lo);
  column.max_ = saturate(range.hi);
  column.wide_min_ = range.lo;
  column.wide_max_ = range.hi;
}

// The dictionary is sorted so that code order is string order: comparisons and ORDER BY
// on a string column can work on codes.
void ColumnBuilder::finish_strings(std::span<ColumnBuilder> parts, Column& column) {
  // One interner of all distinct strings: the largest part's, moved, so that its strings
  // (often nearly all of them) are not hashed again; the others map their ids into it.
  size_t base = 0;
  for (size_t p = 1; p < parts.size(); ++p) {
    if (parts[p].strings_.size() > parts[base].strings_.size()) base = p;
  }
  StringInterner all = std::move(parts[base].strings_);
  std::vector<std::vector<int64_t>> part_ids(parts.size());
  for (size_t p = 0; p < parts.size(); ++p) {
    std::vector<int64_t>& ids = part_ids[p];
    if (p == base) {
      ids.resize(all.size());
      std::iota(ids.begin(), ids.end(), int64_t{0});
      continue;
    }
    const StringInterner& strings = parts[p].strings_;
    ids.resize(strings.size());
    for (uint32_t id = 0; id < strings.size(); ++id) ids[id] = all.intern(strings.get(id));
  }
  std::vector<uint32_t> order = all.ids_in_string_order();
  std::vector<int64_t> code_of(all.size());
  column.dictionary_.reserve(all.size());
  for (size_t rank = 0; rank < order.size(); ++rank) {
    code_of[order[rank]] = static_cast<int64_t>(rank);
    column.dictionary_.emplace_back(all.get(order[rank]));
  }
  column.encoding_ = Encoding::Dictionary;
  column.min_ = 0;
  column.max_ = all.size() ? static_cast<int64_t>(all.size()) - 1 : 0;
  column.base_ = 0;
  column.bits_ = bits_needed(static_cast<uint64_t>(column.max_));
  column.packed_.assign(packed_word_count(column.size_, column.bits_), 0);
  size_t row = 0;
  for (size_t p = 0; p < parts.size(); ++p) {
    std::vector<int64_t>& codes = parts[p].ints_;
    const std::vector<int64_t>& ids = part_ids[p];
    // NULL rows hold id 0, which may not exist in an all-NULL part: pack_bits skips them.
    for (int64_t& v : codes) v = ids.empty() ? 0 : code_of[static_cast<size_t>(ids[v])];
    pack_bits(column.packed_.data(), row * static_cast<size_t>(column.bits_), codes, 0,
              column.bits_, parts[p].validity_);
    row += parts[p].size_;
  }
}

// ---- append_column ----

void append_column(ColumnBuilder& builder, const Column& column) {
  const Type& type = column.type();
  size_t n = column.size();
  if (type.is_string() && !column.has_nulls()) {
    std::vector<uint32_t> codes(n);
    for (size_t i = 0; i < n; ++i) codes[i] = static_cast<uint32_t>(column.get_int(i));
    builder.append_pooled_strings(column.dictionary(), codes);
    return;
  }
  builder.reserve(builder.size() + n);
  for (size_t i = 0; i < n; ++i) {
    if (!column.is_valid(i)) {
      builder.append_null();
    } else if (type.is_string()) {
      builder.append_string(column.dictionary()[static_cast<size_t>(column.get_int(i))]);
    } else if (type.is_float()) {
      builder.append_double(column.get_double(i));
    } else if (type.is_wide()) {
      builder.append_wide(column.get_wide(i));
    } else {
      builder.append_int(column.get_int(i));
    }
  }
}

}  // namespace tally
