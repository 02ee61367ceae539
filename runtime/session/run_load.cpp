// COPY t [(columns)] FROM: new rows are appended into new columns built aside; the table
// is swapped in only when every row was accepted.
#include <fmt/format.h>

#include <algorithm>

#include "compiler/bind/binder.h"
#include "runtime/load/copy_loader.h"
#include "runtime/session/database.h"
#include "runtime/session/target_columns.h"

namespace tally {

namespace {

// `old` followed by the rows of `file`, whose columns are `old`'s columns `targets`; the
// columns not listed get NULL, as in PostgreSQL.
TablePtr with_listed_columns(const Table& old, const std::vector<int>& targets, const Table& file) {
  auto table = std::make_shared<Table>();
  table->schema = old.schema;
  for (size_t c = 0; c < old.schema.columns.size(); ++c) {
    const ColumnSchema& column = old.schema.columns[c];
    ColumnBuilder builder(column.type);
    builder.reserve(old.rows() + file.rows());
    append_column(builder, *old.columns[c]);
    auto listed = std::find(targets.begin(), targets.end(), static_cast<int>(c));
    if (listed != targets.end()) {
      append_column(builder, *file.columns[listed - targets.begin()]);
    } else if (column.not_null && file.rows() > 0) {
      throw Error(ErrorKind::Data,
                  fmt::format("COPY {}: column {} is NOT NULL, and not in the column list",
                              old.schema.name, column.name));
    } else {
      for (size_t r = 0; r < file.rows(); ++r) builder.append_null();
    }
    table->columns.push_back(builder.finish());
  }
  return table;
}

// The file's fields are the listed columns, in the order listed.
TablePtr copy_listed_columns(const Table& old, const ast::CopyStmt& stmt,
                             const CopyOptions& options, const LoadControl& control,
                             LoadStats* stats) {
  const std::vector<int> targets = target_columns(stmt.columns, old.schema);
  TableSchema schema;
  schema.name = old.schema.name;
  for (int t : targets) schema.columns.push_back(old.schema.columns[t]);
  TablePtr file =
      copy_into(*make_empty_table(std::move(schema)), stmt.path, options, control, stats);
  return with_listed_columns(old, targets, *file);
}

}  // namespace

StatementOutcome Database::run_copy(const ast::CopyStmt& stmt, const ExecOptions& exec) {
  TablePtr old = existing_table(stmt.table);
  CopyOptions options = copy_options_from(stmt.options, stmt.path);
  LoadStats stats;
  TablePtr loaded = stmt.columns.empty()
                        ? copy_into(*old, stmt.path, options, load_control(exec), &stats)
                        : copy_listed_columns(*old, stmt, options, load_control(exec), &stats);
  size_t added = loaded->rows() - old->rows();
  put_table(std::move(loaded));
  StatementOutcome outcome = tagged(fmt::format("COPY {}", added));
  outcome.load = stats;
  return outcome;
}

}  // namespace tally
