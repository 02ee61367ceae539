// ResultSet: typed, NULL-checked reads of an internal Result.
#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "api/engine_impl.h"
#include "runtime/result/column_cells.h"

namespace tally {

namespace {

TypeKind kind_of(const Type& type) {
  switch (type.id) {
    case TypeId::Null:
      return TypeKind::Null;
    case TypeId::Boolean:
      return TypeKind::Boolean;
    case TypeId::SmallInt:
      return TypeKind::SmallInt;
    case TypeId::Integer:
      return TypeKind::Integer;
    case TypeId::BigInt:
      return TypeKind::BigInt;
    case TypeId::Real:
      return TypeKind::Real;
    case TypeId::Double:
      return TypeKind::Double;
    case TypeId::Decimal:
      return TypeKind::Decimal;
    case TypeId::Date:
      return TypeKind::Date;
    case TypeId::Timestamp:
      return TypeKind::Timestamp;
    case TypeId::TimestampTz:
      return TypeKind::TimestampTz;
    case TypeId::Time:
      return TypeKind::Time;
    case TypeId::HugeInt:
      return TypeKind::HugeInt;
    case TypeId::Interval:
      return TypeKind::Interval;
    case TypeId::Varchar:
      return TypeKind::Varchar;
  }
  return TypeKind::Null;
}

const ResultSet::Impl& empty_result() {
  static const ResultSet::Impl empty;
  return empty;
}

}  // namespace

ColumnInfo column_info(std::string name, const Type& type) {
  return {std::move(name), type.to_string(), kind_of(type), type.precision, type.scale};
}

ResultSet make_result_set(const StatementOutcome& outcome) {
  auto impl = std::make_shared<ResultSet::Impl>();
  impl->tag = outcome.tag;
  if (outcome.result) {
    impl->result = *outcome.result;
    const Result& r = impl->result;
    for (size_t c = 0; c < r.names.size(); ++c) {
      impl->columns.push_back(column_info(r.names[c], r.types[c]));
    }
  }
  return ResultSet(std::move(impl));
}

ResultSet::ResultSet() : impl_(std::shared_ptr<const Impl>(), &empty_result()) {}
ResultSet::ResultSet(std::shared_ptr<const Impl> impl) : impl_(std::move(impl)) {}

size_t ResultSet::column_count() const { return impl_->columns.size(); }
size_t ResultSet::row_count() const { return impl_->result.rows.size(); }
const std::string& ResultSet::tag() const { return impl_->tag; }
const std::string& ResultSet::device() const { return impl_->result.device; }

const ColumnInfo& ResultSet::column(size_t column) const {
  if (column >= impl_->columns.size()) {
    throw Error(ErrorKind::Execution, fmt::format("column {} is out of range: the result has {}",
                                                  column, impl_->columns.size()));
  }
  return impl_->columns[column];
}

size_t ResultSet::column_index(std::string_view name) const {
  for (size_t c = 0; c < impl_->columns.size(); ++c) {
    if (impl_->columns[c].name == name) return c;
  }
  throw Error(ErrorKind::Binder, fmt::format("the result has no column \"{}\"", name));
}

namespace {

using Kinds = std::initializer_list<TypeKind>;

// The column's description, after a range check; its type must be one of `kinds`.
const ColumnInfo& checked_column(const ResultSet::Impl& impl, size_t column, Kinds kinds,
                                 const char* getter) {
  if (column >= impl.columns.size()) {
    throw Error(ErrorKind::Execution, fmt::format("column {} is out of range: the result has {}",
                                                  column, impl.columns.size()));
  }
  const ColumnInfo& info = impl.columns[column];
  if (std::find(kinds.begin(), kinds.end(), info.kind) == kinds.end()) {
    throw Error(ErrorKind::Type,
                fmt::format("{}: column \"{}\" is {}", getter, info.name, info.type_name));
  }
  return info;
}

// The cell, after range and type checks; it must not be NULL.
Value checked_cell(const ResultSet::Impl& impl, size_t row, size_t column, Kinds kinds,
                   const char* getter) {
  const ColumnInfo& info = checked_column(impl, column, kinds, getter);
  if (row >= impl.result.rows.size()) {
    throw Error(ErrorKind::Execution, fmt::format("row {} is out of range: the result has {}", row,
                                                  impl.result.rows.size()));
  }
  const Value v = impl.result.rows[row][column];
  if (v.null) {
    throw Error(ErrorKind::Execution,
                fmt::format("{}: column \"{}\" is NULL in row {}", getter, info.name, row));
  }
  return v;
}

constexpr Kinds kIntegers = {TypeKind::SmallInt, TypeKind::Integer, TypeKind::BigInt};
constexpr Kinds kNumbers = {TypeKind::Real,    TypeKind::Double,   TypeKind::Decimal,
                            TypeKind::HugeInt, TypeKind::SmallInt, TypeKind::Integer,
                            TypeKind::BigInt};
constexpr Kinds kStrings = {TypeKind::Varchar};
constexpr Kinds kFixedWidth = {TypeKind::Boolean, TypeKind::SmallInt,  TypeKind::Integer,
                               TypeKind::BigInt,  TypeKind::Real,      TypeKind::Double,
                               TypeKind::Date,    TypeKind::Timestamp, TypeKind::TimestampTz,
                               TypeKind::Time};

}  // namespace

bool ResultSet::is_null(size_t row, size_t column) const {
  if (row >= row_count() || column >= column_count()) {
    throw Error(ErrorKind::Execution,
                fmt::format("cell ({}, {}) is out of range: the result has {} rows, {} columns",
                            row, column, row_count(), column_count()));
  }
  return impl_->result.rows[row][column].null;
}

bool ResultSet::get_bool(size_t row, size_t column) const {
  return checked_cell(*impl_, row, column, {TypeKind::Boolean}, "get_bool").i != 0;
}

int64_t ResultSet::get_int64(size_t row, size_t column) const {
  return checked_cell(*impl_, row, column, kIntegers, "get_int64").i;
}

double ResultSet::get_double(size_t row, size_t column) const {
  const Value& v = checked_cell(*impl_, row, column, kNumbers, "get_double");
  const ColumnInfo& info = impl_->columns[column];
  if (info.kind == TypeKind::Decimal) {
    return static_cast<double>(v.d) / std::pow(10.0, info.scale);
  }
  if (info.kind == TypeKind::Real || info.kind == TypeKind::Double) return v.f;
  if (info.kind == TypeKind::HugeInt) return static_cast<double>(v.d);
  return static_cast<double>(v.i);
}

std::string_view ResultSet::get_string(size_t row, size_t column) const {
  const Value& v = checked_cell(*impl_, row, column, kStrings, "get_string");
  return impl_->result.strings->get(v.i);
}

int32_t ResultSet::get_date(size_t row, size_t column) const {
  return static_cast<int32_t>(checked_cell(*impl_, row, column, {TypeKind::Date}, "get_date").i);
}

int64_t ResultSet::get_timestamp(size_t row, size_t column) const {
  return checked_cell(*impl_, row, column,
                      {TypeKind::Timestamp, TypeKind::TimestampTz, TypeKind::Time}, "get_timestamp")
      .i;
}

int128 ResultSet::get_unscaled(size_t row, size_t column) const {
  return checked_cell(*impl_, row, column, {TypeKind::Decimal, TypeKind::HugeInt}, "get_unscaled")
      .d;
}

std::string ResultSet::get_text(size_t row, size_t column) const {
  is_null(row, column);  // the range check
  return impl_->result.cell_text(row, column);
}

namespace {

// One column, NULLs as empty optionals, the others value_of(row) (no Value a cell).
template <typename T, typename ValueOf>
std::vector<std::optional<T>> optionals(const ResultColumn& column, ValueOf value_of) {
  const uint8_t* nulls = column.nulls().data();
  std::vector<std::optional<T>> out(column.size());
  for (size_t row = 0; row < out.size(); ++row) {
    if (!nulls[row]) out[row] = value_of(row);
  }
  return out;
}

}  // namespace

// The getters below read the cells of a column whole. A result without rows may have no
// cells to read (rows built without types make their columns with the first row).

std::vector<std::optional<int64_t>> ResultSet::int64_column(size_t column) const {
  checked_column(*impl_, column, kIntegers, "int64_column");
  if (row_count() == 0) return {};
  std::vector<std::optional<int64_t>> out;
  const ResultColumn& cells = impl_->result.rows.column(column);
  read_words(cells, [&](auto word_of) { out = optionals<int64_t>(cells, word_of); });
  return out;
}

std::vector<std::optional<double>> ResultSet::double_column(size_t column) const {
  const ColumnInfo& info = checked_column(*impl_, column, kNumbers, "double_column");
  if (row_count() == 0) return {};
  std::vector<std::optional<double>> out;
  const ResultColumn& cells = impl_->result.rows.column(column);
  if (info.kind == TypeKind::Decimal || info.kind == TypeKind::HugeInt) {
    // As get_double: a DECIMAL's unscaled value over 10^scale (a HUGEINT's scale is 0).
    const double scale = info.kind == TypeKind::Decimal ? std::pow(10.0, info.scale) : 1.0;
    read_wide(cells, [&](auto cell_of) {
      out = optionals<double>(
          cells, [&](size_t row) { return static_cast<double>(cell_of(row)) / scale; });
    });
  } else if (info.kind == TypeKind::Real || info.kind == TypeKind::Double) {
    read_words(cells, [&](auto word_of) {
      out = optionals<double>(cells, [&](size_t row) { return word_double(word_of(row)); });
    });
  } else {
    read_words(cells, [&](auto word_of) {
      out = optionals<double>(cells, [&](size_t row) { return static_cast<double>(word_of(row)); });
    });
  }
  return out;
}

std::vector<std::optional<std::string>> ResultSet::string_column(size_t column) const {
  checked_column(*impl_, column, kStrings, "string_column");
  if (row_count() == 0) return {};
  std::vector<std::optional<std::string>> out;
  const ResultColumn& cells = impl_->result.rows.column(column);
  impl_->result.strings->read_many([&](auto string_of) {
    read_words(cells, [&](auto word_of) {
      out = optionals<std::string>(cells, [&](size_t row) { return string_of(word_of(row)); });
    });
  });
  return out;
}

std::vector<std::string> ResultSet::text_column(size_t column) const {
  this->column(column);
  std::vector<std::string> out(row_count());
  for (size_t row = 0; row < out.size(); ++row) out[row] = impl_->result.cell_text(row, column);
  return out;
}

size_t ResultSet::copy_column(size_t column, void* values, uint8_t* nulls) const {
  const ColumnInfo& info =
      values ? checked_column(*impl_, column, kFixedWidth, "copy_column") : this->column(column);
  if (row_count() == 0) return 0;
  const ResultColumn& cells = impl_->result.rows.column(column);
  if (values) {
    switch (info.kind) {
      case TypeKind::Boolean:
        store_words<bool>(cells, 0, cells.size(), values);
        break;
      case TypeKind::SmallInt:
        store_words<int16_t>(cells, 0, cells.size(), values);
        break;
      case TypeKind::Integer:
      case TypeKind::Date:
        store_words<int32_t>(cells, 0, cells.size(), values);
        break;
      case TypeKind::Real:
        store_words<float>(cells, 0, cells.size(), values, word_double);
        break;
      case TypeKind::Double:
        store_words<double>(cells, 0, cells.size(), values, word_double);
        break;
      default:  // BIGINT and the times
        store_words<int64_t>(cells, 0, cells.size(), values);
    }
  }
  if (nulls) std::copy(cells.nulls().begin(), cells.nulls().end(), nulls);
  return static_cast<size_t>(std::count(cells.nulls().begin(), cells.nulls().end(), 1));
}

}  // namespace tally
