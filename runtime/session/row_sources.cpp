#include "runtime/session/row_sources.h"

#include <fmt/format.h>

#include <optional>

#include "compiler/bind/binder.h"
#include "compiler/common/error.h"

namespace tally {

namespace {

// More rows than this (1 GiB of BIGINT, a few seconds to fill) is almost surely a mistake,
// not a table: range(-1, 3000000002) must say so, not run for minutes.
constexpr int128 kMaxSeriesRows = int128(1) << 27;

std::optional<int64_t> series_argument(const ast::Expr& argument) {
  ExprPtr constant = bind_constant(argument, Type::bigint());
  if (constant->value.null) return std::nullopt;
  return constant->value.i;
}

}  // namespace

Result values_result(const std::vector<std::vector<ast::ExprPtr>>& rows) {
  BoundValues bound = bind_values(rows);
  Result result;
  result.types = bound.types;
  for (size_t c = 0; c < bound.types.size(); ++c) {
    result.names.push_back(fmt::format("column{}", c + 1));
  }
  for (const auto& row : bound.rows) {
    std::vector<Value> values;
    for (const ExprPtr& item : row) {
      bool text = item->type.is_string() && !item->value.null;
      values.push_back(text ? Value::from_int(result.strings->intern(item->str)) : item->value);
    }
    result.rows.push_back(std::move(values));
  }
  return result;
}

TablePtr series_table(const ast::TableRef& ref) {
  const bool inclusive = ref.series_function == "generate_series";
  std::vector<std::optional<int64_t>> args;
  for (const auto& argument : ref.series_arguments) args.push_back(series_argument(*argument));
  auto table = std::make_shared<Table>();
  table->schema.name = ref.name;
  if (ref.column_aliases.size() > 1) {
    throw Error(ErrorKind::Binder,
                fmt::format("table \"{}\" has 1 columns available but {} columns specified",
                            ref.name, ref.column_aliases.size()),
                ref.location);
  }
  std::string column = ref.column_aliases.empty() ? ref.series_function : ref.column_aliases[0];
  table->schema.columns.push_back({column, Type::bigint(), false});
  ColumnBuilder builder(Type::bigint());
  bool any_null = false;
  for (const auto& a : args) any_null = any_null || !a;
  if (!any_null) {
    int128 start = args.size() == 1 ? 0 : *args[0];
    int128 stop = args.size() == 1 ? *args[0] : *args[1];
    int128 step = args.size() == 3 ? *args[2] : 1;
    if (step == 0) throw Error(ErrorKind::Execution, "step size cannot equal zero", ref.location);
    // Rows: start, start + step, ... while before stop (or at it, inclusive).
    int128 span = step > 0 ? stop - start : start - stop;
    int128 magnitude = step > 0 ? step : -step;
    int128 rows = span < 0    ? 0
                  : inclusive ? span / magnitude + 1
                              : (span + magnitude - 1) / magnitude;
    if (rows > kMaxSeriesRows) {
      throw Error(ErrorKind::Unsupported,
                  fmt::format("{}() of more than {} rows is not supported", ref.series_function,
                              static_cast<int64_t>(kMaxSeriesRows)),
                  ref.location);
    }
    builder.reserve(static_cast<size_t>(rows));
    for (int128 i = 0; i < rows; ++i) builder.append_int(static_cast<int64_t>(start + i * step));
  }
  table->columns.push_back(builder.finish());
  return table;
}

}  // namespace tally
