// A column of a table, immutable once built. Each column carries an encoding that both
// the CPU engine and the GPU Scan decode in place:
//   Plain       native-width values (int16/int32/int64/int128/float/double)
//   BitPacked   frame of reference: value = base + packed[i], `bits` bits per value,
//               little-endian within 64-bit words, values may straddle two words; the
//               words end with one extra zero word, so a decoder may always load
//               word + 1 without a bounds check
//   Dictionary  strings: a sorted dictionary, and codes stored BitPacked with base 0,
//               so code order is string order
// NULLs are a validity bitmap (bit set = valid); empty bitmap = no NULLs. Bit r of the
// bitmap is bit r % 64 of word r / 64: on little-endian machines this is Arrow's LSB order.
// A Plain column may borrow its values from memory it does not own (the library's
// zero-copy import of caller-owned and Arrow columns): a keep-alive handle holds that
// memory until the last reference to the column goes away.
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "compiler/common/string_heap.h"
#include "compiler/common/types.h"
#include "compiler/common/value.h"
#include "runtime/storage/bit_packing.h"
#include "runtime/storage/string_interner.h"

namespace tally {

enum class Encoding : uint8_t { Plain, BitPacked, Dictionary };
const char* encoding_name(Encoding e);

class Column {
 public:
  const Type& type() const { return type_; }
  size_t size() const { return size_; }
  Encoding encoding() const { return encoding_; }
  size_t null_count() const { return null_count_; }
  bool has_nulls() const { return null_count_ > 0; }
  bool is_valid(size_t row) const {
    return validity_.empty() || ((validity_[row >> 6] >> (row & 63)) & 1);
  }

  // Integer-like payload of a row (integers, DATE, BOOLEAN, DECIMAL p<=18, dictionary
  // codes), decoded from Plain or BitPacked.
  int64_t get_int(size_t row) const {
    if (encoding_ == Encoding::Plain) return plain_int(row);
    return base_ + static_cast<int64_t>(unpack(row));
  }
  int128 get_wide(size_t row) const;    // DECIMAL p>18 (Plain int128), or widened get_int
  double get_double(size_t row) const;  // REAL, DOUBLE
  // The engine Value of a row, without string interning (strings give their code).
  Value get_value(size_t row) const;

  // Dictionary columns.
  const std::vector<std::string>& dictionary() const { return dictionary_; }

  // Raw buffers, for the GPU upload and for tests of the encodings. The plain bytes are
  // the column's own or borrowed (see borrow_plain).
  const std::vector<uint64_t>& validity_words() const { return validity_; }
  std::span<const uint8_t> plain_bytes() const {
    return borrowed_keep_alive_ ? borrowed_ : std::span<const uint8_t>(plain_);
  }
  bool borrows_memory() const { return borrowed_keep_alive_ != nullptr; }
  const std::vector<uint64_t>& packed_words() const { return packed_; }
  int64_t base() const { return base_; }
  int bits() const { return bits_; }
  // Smallest and largest non-NULL integer payload (integer-like types; for dictionary
  // columns the codes; wide DECIMAL saturated to the int64 range; 0 for REAL/DOUBLE).
  // Valid when size() > null_count().
  int64_t min_int() const { return min_; }
  int64_t max_int() const { return max_; }
  // HUGEINT, wide DECIMAL and INTERVAL columns: the exact range, which the planner's
  // magnitudes read where the int64 range above saturates (0 for other types).
  int128 min_wide() const { return wide_min_; }
  int128 max_wide() const { return wide_max_; }
  size_t encoded_bytes() const;

  // A Plain column over `bytes` (size rows of physical_width(type) bytes each, native
  // layout; rows under NULLs should hold 0) without copying them. `bytes` must stay valid
  // while `keep_alive` lives; the column holds `keep_alive` until it is destroyed.
  // `validity` as validity_words() (empty: no NULLs). Not for strings.
  static std::shared_ptr<const Column> borrow_plain(Type type, std::span<const uint8_t> bytes,
                                                    std::vector<uint64_t> validity,
                                                    std::shared_ptr<const void> keep_alive);

 private:
  friend class ColumnBuilder;
  friend struct ColumnCodec;  // runtime/storage/table_file.cpp: columns to and from files
  int64_t plain_int(size_t row) const;
  // Sets wide_min_/wide_max_ from the values, and min_/max_ as them saturated, for columns whose
  // range no builder computed (borrowed memory, table files, whose statistics hold only the
  // saturated int64 range).
  void scan_wide_range();
  uint64_t unpack(size_t row) const { return unpack_field(packed_, row, bits_); }

  Type type_;
  size_t size_ = 0;
  Encoding encoding_ = Encoding::Plain;
  size_t null_count_ = 0;
  std::vector<uint64_t> validity_;
  std::vector<uint8_t> plain_;                       // owned plain values
  std::span<const uint8_t> borrowed_;                // borrowed plain values, or empty
  std::shared_ptr<const void> borrowed_keep_alive_;  // set iff the values are borrowed
  std::vector<uint64_t> packed_;
  int64_t base_ = 0;
  int bits_ = 0;
  int64_t min_ = 0;
  int64_t max_ = 0;
  int128 wide_min_ = 0;
  int128 wide_max_ = 0;
  std::vector<std::string> dictionary_;
};

using ColumnPtr = std::shared_ptr<const Column>;

// Accumulates values of one type, then picks an encoding and builds the Column.
class ColumnBuilder {
 public:
  explicit ColumnBuilder(Type type);

  void reserve(size_t n);
  void append_null();
  void append_int(int64_t v);    // integer-like types and DECIMAL p<=18 (unscaled)
  void append_wide(int128 v);    // DECIMAL (any precision), unscaled
  void append_double(double v);  // REAL, DOUBLE
  void append_string(std::string_view s);
  // Appends an engine Value of this builder's type (strings: `strings` resolves ids).
  void append_value(const Value& v, const StringHeap* strings);

  // Bulk forms for generators and loaders; every appended row is valid.
  void append_ints(std::span<const int64_t> values);
  void append_doubles(std::span<const double> values);
  // Strings given as indexes into `pool`: one hash lookup per distinct index, not per row.
  void append_pooled_strings(std::span<const std::string> pool, std::span<const uint32_t> indexes);
  // Moves the rows of `other` (same type) to the end of this builder, so that threads can
  // build parts of a column and join them in order.
  void append_builder(ColumnBuilder&& other);

  size_t size() const { return size_; }

  // Builds with the most compact encoding; `allow_compression` false forces Plain
  // (strings are always Dictionary).
  ColumnPtr finish(bool allow_compression = true);
  // Encodes the rows of `parts` (same type, not empty), in order, as one column: the
  // result of append_builder on each part then finish(), without copying the rows into
  // one builder first. The parts are left empty.
  static ColumnPtr finish_parts(std::span<ColumnBuilder> parts, bool allow_compression = true);

 private:
  void mark(bool valid);
  void start_validity();
  static void join_validity(std::span<ColumnBuilder> parts, Column& column);
  static void finish_ints(std::span<ColumnBuilder> parts, bool allow_compression, Column& column);
  static void finish_plain(std::span<ColumnBuilder> parts, Column& column);
  static void finish_strings(std::span<ColumnBuilder> parts, Column& column);
  Type type_;
  size_t size_ = 0;
  size_t nulls_ = 0;
  std::vector<uint64_t> validity_;  // empty until the first NULL
  std::vector<int64_t> ints_;       // integer-like payloads; for strings, ids in strings_
  std::vector<int128> wides_;
  std::vector<double> doubles_;
  StringInterner strings_;  // distinct strings in first-seen order
};

// Appends every value of `column` to `builder` (same type), for appends to a table.
void append_column(ColumnBuilder& builder, const Column& column);

}  // namespace tally
