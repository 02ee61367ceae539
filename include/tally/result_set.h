// The rows a statement returned: named, typed columns, read by row or by column, or
// exported as an Arrow struct array. A ResultSet is immutable and cheap to copy (copies
// share the data); it stays valid after the Engine that made it is gone.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "tally/arrow_c_data.h"

namespace tally {

// DECIMAL values unscaled: 128 bits (GCC and Clang; __extension__ keeps -Wpedantic quiet).
__extension__ typedef __int128 int128;

// The SQL type of a result column, without its parameters (see ColumnInfo for those).
enum class TypeKind {
  Null,
  Boolean,
  SmallInt,
  Integer,
  BigInt,
  Real,
  Double,
  Decimal,
  Date,
  Varchar,
  Timestamp,    // microseconds since 1970-01-01 00:00:00
  TimestampTz,  // the same, at UTC (TIMESTAMP WITH TIME ZONE)
  Time,         // microseconds since midnight
  HugeInt,      // a signed 128-bit integer (get_unscaled, scale 0)
  Interval      // months, days and microseconds apart: read with get_text ('1 day 02:00:00')
};

struct ColumnInfo {
  std::string name;
  std::string type_name;  // SQL spelling: "BIGINT", "DECIMAL(15,2)", "DATE", "VARCHAR"
  TypeKind kind = TypeKind::Null;
  int precision = 0;  // DECIMAL only
  int scale = 0;      // DECIMAL only
};

class ResultSet {
 public:
  ResultSet();  // no columns, no rows

  size_t column_count() const;
  size_t row_count() const;
  const ColumnInfo& column(size_t column) const;
  // Index of the column called `name`; throws Error(Binder) when there is none.
  size_t column_index(std::string_view name) const;

  // The statement's tag ("SELECT 4", "INSERT 0 3", "CREATE TABLE") and the engine that
  // ran a SELECT: "cpu", or "gpu: <device name>".
  const std::string& tag() const;
  const std::string& device() const;

  // ---- one cell. Every getter throws Error(Type) when the column's type does not fit
  // and Error(Execution) when the cell is NULL (test with is_null first).
  bool is_null(size_t row, size_t column) const;
  bool get_bool(size_t row, size_t column) const;                // BOOLEAN
  int64_t get_int64(size_t row, size_t column) const;            // SMALLINT, INTEGER, BIGINT
  double get_double(size_t row, size_t column) const;            // REAL, DOUBLE, DECIMAL, integers
  std::string_view get_string(size_t row, size_t column) const;  // VARCHAR, CHAR
  int32_t get_date(size_t row, size_t column) const;             // DATE: days since 1970-01-01
  // TIMESTAMP and TIMESTAMPTZ: micros since 1970 (UTC); TIME: micros since midnight.
  int64_t get_timestamp(size_t row, size_t column) const;
  int128 get_unscaled(size_t row, size_t column) const;  // DECIMAL: value * 10^scale; HUGEINT
  // Any type, as the tally command prints it: "NULL", "12.50", "1998-09-02", ...
  std::string get_text(size_t row, size_t column) const;

  // ---- one column, NULLs as empty optionals; same type rules as the getters.
  std::vector<std::optional<int64_t>> int64_column(size_t column) const;
  std::vector<std::optional<double>> double_column(size_t column) const;
  std::vector<std::optional<std::string>> string_column(size_t column) const;
  std::vector<std::string> text_column(size_t column) const;
  // A column whole into caller memory, for bulk readers (numpy): `nulls` gets row_count()
  // bytes, 1 where NULL; `values` row_count() values of the column's own width, 0 under
  // NULLs: bool (BOOLEAN), int16_t (SMALLINT), int32_t (INTEGER; DATE days), int64_t
  // (BIGINT; TIMESTAMP[TZ] and TIME micros), float (REAL), double (DOUBLE). Either may be
  // nullptr; values of another type throw Error(Type). Returns the number of NULLs.
  size_t copy_column(size_t column, void* values, uint8_t* nulls) const;

  // Exports the result as an Arrow struct array (format "+s", one child per column) into
  // caller-provided structs, which the caller releases. Types: BOOLEAN "b", SMALLINT "s",
  // INTEGER "i", BIGINT "l", REAL "f", DOUBLE "g", DECIMAL "d:P,S" (decimal128), DATE
  // "tdD" (date32), VARCHAR "u" (utf8), an untyped NULL column "n"; NULLs as validity
  // bitmaps. The export copies: the arrays own their buffers and outlive the ResultSet.
  void export_arrow(ArrowSchema* schema, ArrowArray* array) const;

  struct Impl;
  explicit ResultSet(std::shared_ptr<const Impl> impl);

 private:
  std::shared_ptr<const Impl> impl_;
};

}  // namespace tally
