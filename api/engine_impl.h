// What the public classes hold behind their pointers: the internal Database and Result,
// and the lock that lets SELECTs of many threads run together while statements that
// change tables run alone.
#pragma once

#include <atomic>
#include <memory>
#include <optional>
#include <shared_mutex>
#include <string>
#include <vector>

#include "runtime/result/result.h"
#include "runtime/session/database.h"
#include "runtime/session/prepared_select.h"
#include "tally/engine.h"

namespace tally {

struct Engine::Impl {
  EngineOptions options;
  Database database;
  // Shared: SELECTs and binding (the binder holds pointers to table schemas). Exclusive:
  // statements that replace tables, so that none is freed under a running statement and
  // two INSERTs into one table cannot lose a row.
  mutable std::shared_mutex tables_mutex;
  // Engine::cancel counts up; a statement is cancelled once it differs from its start.
  std::atomic<uint64_t> cancels{0};

  ExecOptions exec_options() const;
};

struct PreparedStatement::Impl {
  std::shared_ptr<Engine::Impl> engine;
  std::shared_ptr<const PreparedSelect> statement;
  // Text per parameter, as ExecOptions::parameters takes it ("NULL": NULL); empty: unbound.
  std::vector<std::optional<std::string>> values;
};

struct ResultSet::Impl {
  Result result;
  std::string tag;
  std::vector<ColumnInfo> columns;
};

ResultSet make_result_set(const StatementOutcome& outcome);
ColumnInfo column_info(std::string name, const Type& type);  // api/result_set.cpp

// Tables from Arrow or caller memory (api/arrow_import.cpp).
TablePtr import_arrow_table(std::string name, ArrowSchema* schema, ArrowArray* array);
TablePtr import_column_views(std::string name, std::span<const ColumnView> columns,
                             std::shared_ptr<const void> keep_alive);

}  // namespace tally
