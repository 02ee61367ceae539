// SQL types and their physical representation.
#pragma once

#include <cstdint>
#include <string>

namespace tally {

enum class TypeId : uint8_t {
  Null,  // the type of a bare NULL literal before it is cast
  Boolean,
  SmallInt,
  Integer,
  BigInt,
  Real,
  Double,
  Decimal,  // scaled integer: value = unscaled / 10^scale
  Date,     // days since 1970-01-01
  Varchar,  // dictionary-encoded; CHAR(n) is a Varchar with fixed_length set
  // Microseconds since 1970-01-01 00:00:00 (int64), as PostgreSQL and DuckDB. Last, so
  // the ids already in database files keep their numbers.
  Timestamp,
  // TIMESTAMP WITH TIME ZONE: the same micros, read as UTC; the session zone is always UTC
  // (PostgreSQL and DuckDB with TimeZone 'UTC'), so only its name and printing differ.
  TimestampTz,
  // TIME: microseconds since midnight (int64), 00:00:00 to 24:00:00 as PostgreSQL.
  Time,
  // HUGEINT (INT128): a signed 128-bit integer, -2^127 .. 2^127-1 as DuckDB; held like a
  // DECIMAL(38,0) (Value::d, 16 bytes plain) but with the whole int128 range.
  HugeInt,
  // INTERVAL: months, days and microseconds apart (PostgreSQL), packed in 128 bits
  // (compiler/common/interval_value.h); the CPU engine's alone.
  Interval,
};

struct Type {
  TypeId id = TypeId::Null;
  uint8_t precision = 0;      // DECIMAL only: 1..38
  uint8_t scale = 0;          // DECIMAL only: 0..precision
  uint32_t length = 0;        // CHAR/VARCHAR declared length, 0 = unbounded
  bool fixed_length = false;  // CHAR(n)

  static Type null() { return {TypeId::Null}; }
  static Type boolean() { return {TypeId::Boolean}; }
  static Type smallint() { return {TypeId::SmallInt}; }
  static Type integer() { return {TypeId::Integer}; }
  static Type bigint() { return {TypeId::BigInt}; }
  static Type real() { return {TypeId::Real}; }
  static Type double_() { return {TypeId::Double}; }
  static Type date() { return {TypeId::Date}; }
  static Type timestamp() { return {TypeId::Timestamp}; }
  static Type timestamptz() { return {TypeId::TimestampTz}; }
  static Type time() { return {TypeId::Time}; }
  static Type hugeint() { return {TypeId::HugeInt}; }
  static Type interval() { return {TypeId::Interval}; }
  static Type decimal(int precision, int scale) {
    return {TypeId::Decimal, static_cast<uint8_t>(precision), static_cast<uint8_t>(scale)};
  }
  static Type varchar(uint32_t length = 0) { return {TypeId::Varchar, 0, 0, length, false}; }
  static Type char_(uint32_t length) { return {TypeId::Varchar, 0, 0, length, true}; }

  bool is_integer() const {
    return id == TypeId::SmallInt || id == TypeId::Integer || id == TypeId::BigInt;
  }
  bool is_float() const { return id == TypeId::Real || id == TypeId::Double; }
  bool is_decimal() const { return id == TypeId::Decimal; }
  bool is_hugeint() const { return id == TypeId::HugeInt; }
  bool is_numeric() const { return is_integer() || is_hugeint() || is_float() || is_decimal(); }
  bool is_string() const { return id == TypeId::Varchar; }
  bool is_timestamp() const { return id == TypeId::Timestamp || id == TypeId::TimestampTz; }
  bool is_datetime() const { return id == TypeId::Date || is_timestamp(); }
  bool is_interval() const { return id == TypeId::Interval; }
  // DECIMAL wider than 18 digits needs 128-bit storage.
  bool is_wide_decimal() const { return id == TypeId::Decimal && precision > 18; }
  // Held in a Value's 128-bit payload and stored in 16 bytes: a wide DECIMAL, a HUGEINT or an
  // INTERVAL.
  bool is_wide() const { return is_wide_decimal() || is_hugeint() || is_interval(); }
  // Held in Value::d as an unscaled int128: any DECIMAL or a HUGEINT (scale 0).
  bool is_exact128() const { return is_decimal() || is_hugeint(); }

  // SQL spelling: INTEGER, DECIMAL(15,2), CHAR(1), ...
  std::string to_string() const;
  // Same SQL type, ignoring declared string length.
  bool same_as(const Type& other) const;
  bool operator==(const Type& other) const = default;
};

// Bytes one value occupies in plain (uncompressed) storage.
int physical_width(const Type& type);

// Number of decimal digits an integer type can hold (SMALLINT 5, INTEGER 10, BIGINT 19),
// as the precision of the DECIMAL it widens to.
int integer_digits(TypeId id);

}  // namespace tally
