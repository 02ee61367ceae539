// Engine: scripts, prepared statements and table registration over the internal Database.
#include <fmt/format.h>

#include <mutex>
#include <variant>

#include "api/engine_impl.h"

namespace tally {

namespace {

DeviceChoice device_choice(Device device) {
  switch (device) {
    case Device::Cpu:
      return DeviceChoice::Cpu;
    case Device::Gpu:
      return DeviceChoice::Gpu;
    case Device::Auto:
      break;
  }
  return DeviceChoice::Auto;
}

bool only_selects(const std::vector<ast::Statement>& statements) {
  for (const auto& statement : statements) {
    if (!std::holds_alternative<ast::SelectStmt>(statement.body)) return false;
  }
  return true;
}

}  // namespace

ExecOptions Engine::Impl::exec_options() const {
  ExecOptions exec;
  exec.device = device_choice(options.device);
  exec.cpu_threads = options.cpu_threads;
  exec.device_memory_limit = options.device_memory_limit;
  exec.placement = options.placement;
  exec.devices = options.devices;
  exec.coprocess = options.coprocess;
  exec.progress = options.progress;
  exec.cancelled = [this, start = cancels.load()] { return cancels.load() != start; };
  return exec;
}

Engine::Engine(EngineOptions options) : impl_(std::make_shared<Impl>()) {
  impl_->options = options;
  if (!options.database.empty()) impl_->database.open_store(options.database);
}

Engine::~Engine() = default;
Engine::Engine(Engine&&) noexcept = default;
Engine& Engine::operator=(Engine&&) noexcept = default;

const EngineOptions& Engine::options() const { return impl_->options; }

void Engine::cancel() { ++impl_->cancels; }

ResultSet Engine::execute(std::string_view sql) {
  std::shared_ptr<const std::vector<ast::Statement>> parsed = impl_->database.parse(sql);
  const std::vector<ast::Statement>& statements = *parsed;
  ExecOptions exec = impl_->exec_options();
  StatementOutcome last;
  auto run_all = [&] {
    for (const auto& statement : statements) last = impl_->database.execute(statement, exec);
  };
  if (only_selects(statements)) {
    std::shared_lock lock(impl_->tables_mutex);
    run_all();
  } else {
    std::unique_lock lock(impl_->tables_mutex);
    run_all();
  }
  return make_result_set(last);
}

PreparedStatement Engine::prepare(std::string_view sql) {
  auto statement = std::make_shared<PreparedStatement::Impl>();
  statement->engine = impl_;
  {
    std::shared_lock lock(impl_->tables_mutex);
    statement->statement = impl_->database.prepare(sql);
  }
  statement->values.resize(statement->statement->parameter_types().size());
  return PreparedStatement(std::move(statement));
}

void Engine::register_arrow_table(std::string_view name, ArrowSchema* schema, ArrowArray* array) {
  TablePtr table = import_arrow_table(std::string(name), schema, array);
  std::unique_lock lock(impl_->tables_mutex);
  impl_->database.put_table(std::move(table));
}

void Engine::register_columns(std::string_view name, std::span<const ColumnView> columns,
                              std::shared_ptr<const void> keep_alive) {
  TablePtr table = import_column_views(std::string(name), columns, std::move(keep_alive));
  std::unique_lock lock(impl_->tables_mutex);
  impl_->database.put_table(std::move(table));
}

void Engine::drop_table(std::string_view name) {
  if (name.empty()) throw Error(ErrorKind::Catalog, "a table name is empty");
  std::unique_lock lock(impl_->tables_mutex);
  // The DROP statement, so that the error and its wording are the SQL ones.
  ast::DropTableStmt drop;
  drop.name = std::string(name);
  ast::Statement statement;
  statement.body = std::move(drop);
  impl_->database.execute(statement, impl_->exec_options());
}

std::vector<std::string> Engine::table_names() const {
  std::shared_lock lock(impl_->tables_mutex);
  return impl_->database.table_names();
}

namespace {

TableInfo info_of(const Table& table) {
  TableInfo info;
  info.name = table.schema.name;
  info.rows = table.rows();
  for (const ColumnSchema& column : table.schema.columns) {
    info.columns.push_back(column_info(column.name, column.type));
  }
  return info;
}

}  // namespace

std::vector<TableInfo> Engine::tables() const {
  std::shared_lock lock(impl_->tables_mutex);
  std::vector<TableInfo> infos;
  for (const std::string& name : impl_->database.table_names()) {
    if (TablePtr table = impl_->database.table(name)) infos.push_back(info_of(*table));
  }
  return infos;
}

TableInfo Engine::table(std::string_view name) const {
  std::shared_lock lock(impl_->tables_mutex);
  TablePtr table = impl_->database.table(name);
  if (!table) throw Error(ErrorKind::Catalog, fmt::format("table \"{}\" does not exist", name));
  return info_of(*table);
}

}  // namespace tally
