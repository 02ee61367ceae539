// INSERT INTO t [(columns)] VALUES ... | SELECT ...: new rows are appended into new
// columns built aside; the table is swapped in only when every row was accepted. Values
// take the column's type by the same rule either way: a value whose type casts to the
// column's is cast, a string must fit the column's length.
#include <fmt/format.h>

#include <algorithm>

#include "compiler/bind/binder.h"
#include "compiler/bind/coerce.h"
#include "compiler/eval/evaluator.h"
#include "runtime/session/database.h"
#include "runtime/session/target_columns.h"

namespace tally {

namespace {

// The table's rows so far, in builders that take the new ones.
std::vector<ColumnBuilder> builders_with_rows(const Table& old) {
  std::vector<ColumnBuilder> builders;
  for (size_t c = 0; c < old.schema.columns.size(); ++c) {
    builders.emplace_back(old.schema.columns[c].type);
    append_column(builders.back(), *old.columns[c]);
  }
  return builders;
}

TablePtr finish_table(const TableSchema& schema, std::vector<ColumnBuilder>& builders) {
  auto fresh = std::make_shared<Table>();
  fresh->schema = schema;
  for (auto& b : builders) fresh->columns.push_back(b.finish());
  return fresh;
}

std::string row_column(const std::string& table, size_t row, size_t column,
                       const std::string& name) {
  return fmt::format("INSERT INTO {} row {}, column {} ({})", table, row + 1, column + 1, name);
}

void append_constant(ColumnBuilder& builder, const Expr& constant) {
  if (constant.value.null) {
    builder.append_null();
  } else if (constant.type.is_string()) {
    builder.append_string(constant.str);
  } else {
    builder.append_value(constant.value, nullptr);
  }
}

// One value of a SELECT's column `from` into a column of type `to` (a cast, as bind_constant
// does for VALUES), or an error naming the row and column.
void append_converted(ColumnBuilder& builder, const Value& value, const Type& from, const Type& to,
                      StringHeap& strings, const std::string& where) {
  if (value.null || from.id == TypeId::Null) {
    builder.append_null();
    return;
  }
  // Strings are converted unbounded first so that a value too long is an error, not cut.
  Value converted;
  try {
    converted = cast_value(value, from, to.is_string() ? Type::varchar() : to, &strings);
  } catch (const Error& e) {
    throw Error(e.kind(), fmt::format("{}: {}", where, e.what()));
  }
  if (!to.is_string()) {
    builder.append_value(converted, nullptr);
    return;
  }
  std::optional<std::string_view> fitted = fit_string(strings.get(converted.i), to);
  if (!fitted) {
    throw Error(ErrorKind::Data,
                fmt::format("{}: value too long for type {}", where, to.to_string()));
  }
  builder.append_string(*fitted);
}

// A NOT NULL column that the INSERT leaves out would get NULL.
void require_listed_not_null(const TableSchema& schema, const std::vector<int>& targets,
                             const std::string& table, size_t row) {
  for (size_t c = 0; c < schema.columns.size(); ++c) {
    bool listed = std::find(targets.begin(), targets.end(), static_cast<int>(c)) != targets.end();
    if (!listed && schema.columns[c].not_null) {
      throw Error(ErrorKind::Data, fmt::format("{}: NULL in a NOT NULL column",
                                               row_column(table, row, c, schema.columns[c].name)));
    }
  }
}

}  // namespace

StatementOutcome Database::run_insert(const ast::InsertStmt& stmt, const ExecOptions& options) {
  if (stmt.select) return run_insert_select(stmt, options);
  TablePtr old = existing_table(stmt.table);
  const TableSchema& schema = old->schema;
  std::vector<int> targets = target_columns(stmt.columns, schema);
  std::vector<ColumnBuilder> builders = builders_with_rows(*old);
  for (size_t r = 0; r < stmt.rows.size(); ++r) {
    const auto& row = stmt.rows[r];
    if (row.size() != targets.size()) {
      throw Error(ErrorKind::Data, fmt::format("INSERT INTO {} row {}: {} values for {} columns",
                                               stmt.table, r + 1, row.size(), targets.size()));
    }
    std::vector<ExprPtr> values(schema.columns.size());
    for (size_t i = 0; i < row.size(); ++i) {
      const ColumnSchema& column = schema.columns[targets[i]];
      try {
        values[targets[i]] = bind_constant(*row[i], column.type);
      } catch (const Error& e) {
        throw Error(
            e.kind(),
            fmt::format("{}: {}", row_column(stmt.table, r, targets[i], column.name), e.what()),
            e.location());
      }
    }
    for (size_t c = 0; c < schema.columns.size(); ++c) {
      bool is_null = !values[c] || values[c]->value.null;
      if (is_null && schema.columns[c].not_null) {
        throw Error(ErrorKind::Data,
                    fmt::format("{}: NULL in a NOT NULL column",
                                row_column(stmt.table, r, c, schema.columns[c].name)));
      }
      if (!values[c]) {
        builders[c].append_null();
      } else {
        append_constant(builders[c], *values[c]);
      }
    }
  }
  put_table(finish_table(schema, builders));
  return tagged(fmt::format("INSERT 0 {}", stmt.rows.size()));
}

// The SELECT runs first, over the table as it was (INSERT INTO t SELECT * FROM t doubles t).
StatementOutcome Database::run_insert_select(const ast::InsertStmt& stmt,
                                             const ExecOptions& options) {
  TablePtr old = existing_table(stmt.table);
  const TableSchema& schema = old->schema;
  std::vector<int> targets = target_columns(stmt.columns, schema);
  StatementOutcome select = run_select(*stmt.select, 0, host_query_options(options));
  Result& result = *select.result;
  if (result.types.size() != targets.size()) {
    throw Error(ErrorKind::Binder,
                fmt::format("INSERT INTO {}: the SELECT gives {} column{} for {} target column{}",
                            stmt.table, result.types.size(), result.types.size() == 1 ? "" : "s",
                            targets.size(), targets.size() == 1 ? "" : "s"));
  }
  for (size_t i = 0; i < targets.size(); ++i) {
    const ColumnSchema& column = schema.columns[targets[i]];
    if (result.types[i].id != TypeId::Null && !can_cast(result.types[i], column.type)) {
      throw Error(ErrorKind::Type,
                  fmt::format("INSERT INTO {} column {} ({}): cannot cast {} to {}", stmt.table,
                              targets[i] + 1, column.name, result.types[i].to_string(),
                              column.type.to_string()));
    }
  }
  std::vector<ColumnBuilder> builders = builders_with_rows(*old);
  for (size_t r = 0; r < result.rows.size(); ++r) {
    require_listed_not_null(schema, targets, stmt.table, r);
    std::vector<bool> filled(schema.columns.size(), false);
    for (size_t i = 0; i < targets.size(); ++i) {
      const ColumnSchema& column = schema.columns[targets[i]];
      const Value& value = result.rows[r][i];
      if (value.null && column.not_null) {
        throw Error(ErrorKind::Data,
                    fmt::format("{}: NULL in a NOT NULL column",
                                row_column(stmt.table, r, targets[i], column.name)));
      }
      append_converted(builders[targets[i]], value, result.types[i], column.type, *result.strings,
                       row_column(stmt.table, r, targets[i], column.name));
      filled[targets[i]] = true;
    }
    for (size_t c = 0; c < schema.columns.size(); ++c) {
      if (!filled[c]) builders[c].append_null();
    }
  }
  put_table(finish_table(schema, builders));
  return tagged(fmt::format("INSERT 0 {}", result.rows.size()));
}

}  // namespace tally
