// COPY and INSERT: new rows are appended into new columns built aside; the table is
// swapped in only when every row was accepted.
#include <fmt/format.h>

#include "compiler/bind/binder.h"
#include "runtime/load/copy_loader.h"
#include "runtime/session/database.h"

namespace tally {

StatementOutcome Database::run_copy(const ast::CopyStmt& stmt, const ExecOptions& exec) {
  TablePtr old = existing_table(stmt.table);
  CopyOptions options = copy_options_from(stmt.options, stmt.path);
  LoadStats stats;
  TablePtr loaded = copy_into(*old, stmt.path, options, load_control(exec), &stats);
  size_t added = loaded->rows() - old->rows();
  put_table(std::move(loaded));
  StatementOutcome outcome = tagged(fmt::format("COPY {}", added));
  outcome.load = stats;
  return outcome;
}

namespace {

// Target column of each VALUES position.
std::vector<int> insert_targets(const ast::InsertStmt& stmt, const TableSchema& schema) {
  std::vector<int> targets;
  if (stmt.columns.empty()) {
    for (size_t i = 0; i < schema.columns.size(); ++i) targets.push_back(static_cast<int>(i));
    return targets;
  }
  for (const auto& name : stmt.columns) {
    int index = schema.find_column(name);
    if (index < 0) {
      throw Error(ErrorKind::Binder,
                  fmt::format("column \"{}\" of table \"{}\" does not exist", name, stmt.table));
    }
    for (int t : targets) {
      if (t == index) {
        throw Error(ErrorKind::Binder, fmt::format("column \"{}\" specified more than once", name));
      }
    }
    targets.push_back(index);
  }
  return targets;
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

}  // namespace

StatementOutcome Database::run_insert(const ast::InsertStmt& stmt) {
  TablePtr old = existing_table(stmt.table);
  const TableSchema& schema = old->schema;
  std::vector<int> targets = insert_targets(stmt, schema);
  std::vector<ColumnBuilder> builders;
  for (size_t c = 0; c < schema.columns.size(); ++c) {
    builders.emplace_back(schema.columns[c].type);
    append_column(builders.back(), *old->columns[c]);
  }
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
        throw Error(e.kind(),
                    fmt::format("INSERT INTO {} row {}, column {} ({}): {}", stmt.table, r + 1,
                                targets[i] + 1, column.name, e.what()),
                    e.location());
      }
    }
    for (size_t c = 0; c < schema.columns.size(); ++c) {
      bool is_null = !values[c] || values[c]->value.null;
      if (is_null && schema.columns[c].not_null) {
        throw Error(ErrorKind::Data,
                    fmt::format("INSERT INTO {} row {}, column {} ({}): NULL in a NOT NULL column",
                                stmt.table, r + 1, c + 1, schema.columns[c].name));
      }
      if (!values[c]) {
        builders[c].append_null();
      } else {
        append_constant(builders[c], *values[c]);
      }
    }
  }
  auto fresh = std::make_shared<Table>();
  fresh->schema = schema;
  for (auto& b : builders) fresh->columns.push_back(b.finish());
  put_table(std::move(fresh));
  return tagged(fmt::format("INSERT 0 {}", stmt.rows.size()));
}

}  // namespace tally
