#include "compiler/common/types.h"

#include <fmt/format.h>

namespace tally {

std::string Type::to_string() const {
  switch (id) {
    case TypeId::Null:
      return "NULL";
    case TypeId::Boolean:
      return "BOOLEAN";
    case TypeId::SmallInt:
      return "SMALLINT";
    case TypeId::Integer:
      return "INTEGER";
    case TypeId::BigInt:
      return "BIGINT";
    case TypeId::Real:
      return "REAL";
    case TypeId::Double:
      return "DOUBLE";
    case TypeId::Decimal:
      return fmt::format("DECIMAL({},{})", precision, scale);
    case TypeId::Date:
      return "DATE";
    case TypeId::Timestamp:
      return "TIMESTAMP";
    case TypeId::TimestampTz:
      return "TIMESTAMP WITH TIME ZONE";
    case TypeId::Time:
      return "TIME";
    case TypeId::HugeInt:
      return "HUGEINT";
    case TypeId::Interval:
      return "INTERVAL";
    case TypeId::Varchar:
      if (fixed_length) return fmt::format("CHAR({})", length);
      return length ? fmt::format("VARCHAR({})", length) : "VARCHAR";
  }
  return "?";
}

bool Type::same_as(const Type& other) const {
  if (id != other.id) return false;
  if (id == TypeId::Decimal) return precision == other.precision && scale == other.scale;
  return true;
}

int physical_width(const Type& type) {
  switch (type.id) {
    case TypeId::Null:
      return 0;
    case TypeId::Boolean:
      return 1;
    case TypeId::SmallInt:
      return 2;
    case TypeId::Integer:
      return 4;
    case TypeId::BigInt:
      return 8;
    case TypeId::Real:
      return 4;
    case TypeId::Double:
      return 8;
    case TypeId::Decimal:
      return type.precision > 18 ? 16 : 8;
    case TypeId::HugeInt:
      return 16;
    case TypeId::Date:
      return 4;
    case TypeId::Timestamp:
    case TypeId::TimestampTz:
    case TypeId::Time:
      return 8;
    case TypeId::Interval:
      return 16;
    case TypeId::Varchar:
      return 4;  // dictionary code
  }
  return 0;
}

int integer_digits(TypeId id) {
  switch (id) {
    case TypeId::SmallInt:
      return 5;
    case TypeId::Integer:
      return 10;
    case TypeId::BigInt:
      return 19;
    case TypeId::HugeInt:
      return 38;  // as DuckDB widens it: DECIMAL(38,0)
    default:
      return 0;
  }
}

}  // namespace tally
