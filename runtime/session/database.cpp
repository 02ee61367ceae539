#include "runtime/session/database.h"

#include <fmt/format.h>

#include <cctype>
#include <chrono>

#include "compiler/bind/binder.h"
#include "compiler/common/elapsed.h"
#include "compiler/common/suggest.h"
#include "runtime/compile/background_compiler.h"
#include "runtime/cuda/device.h"
#include "runtime/gpu/gpu_engine.h"
#include "runtime/session/settings.h"
#include "runtime/storage/host_memory.h"

namespace tally {

Database::Database()
    : settings_(std::make_unique<SessionSettings>()),
      compiler_(std::make_unique<BackgroundCompiler>()) {}
Database::~Database() = default;

std::shared_ptr<GpuEngine> Database::gpu() {
  std::lock_guard lock(gpu_mutex_);
  // After a lost context the engine's buffers and modules are gone with it; opening the
  // device again reports why it cannot run.
  if (cuda::lost_context()) gpu_.reset();
  if (!gpu_) gpu_ = std::make_shared<GpuEngine>();
  return gpu_;
}

std::vector<std::shared_ptr<GpuEngine>> Database::gpus(const std::vector<int>& ordinals) {
  std::vector<std::shared_ptr<GpuEngine>> engines;
  for (size_t i = 0; i < ordinals.size(); ++i) {
    if (i == 0 && ordinals[0] == 0) {
      engines.push_back(gpu());
      continue;
    }
    std::lock_guard lock(gpu_mutex_);
    auto& engine = part_engines_[{i, ordinals[i]}];
    if (!engine || cuda::lost_context()) engine = std::make_shared<GpuEngine>(ordinals[i]);
    engines.push_back(engine);
  }
  return engines;
}

std::future<double> Database::warm_gpu() {
  return std::async(std::launch::async, [this] {
    if (!cuda::gpu_available()) return 0.0;
    const auto start = std::chrono::steady_clock::now();
    try {
      warmed_interpreter_ = gpu()->warm_up();
    } catch (const std::exception&) {  // an unusable GPU: the first statement says why
    }
    return ms_since(start);
  });
}

Database::GpuMemory Database::gpu_memory() {
  std::lock_guard lock(gpu_mutex_);
  if (!gpu_) return {};
  return {gpu_->memory_held(), gpu_->memory_cached()};
}

void Database::wait_for_compiles() { compiler_->wait_idle(); }

const TableSchema* Database::find_table(std::string_view name) const {
  std::lock_guard lock(mutex_);
  auto it = tables_.find(name);
  return it == tables_.end() ? nullptr : &it->second->schema;
}

std::vector<std::string> Database::table_names() const {
  std::lock_guard lock(mutex_);
  std::vector<std::string> names;
  for (const auto& [name, table] : tables_) names.push_back(name);
  return names;
}

TablePtr Database::table(std::string_view name) const {
  std::lock_guard lock(mutex_);
  auto it = tables_.find(name);
  return it == tables_.end() ? nullptr : it->second;
}

void Database::put_table(TablePtr table) {
  std::lock_guard lock(mutex_);
  tables_[table->schema.name] = std::move(table);
}

TablePtr Database::existing_table(const std::string& name) const {
  TablePtr t = table(name);
  if (!t) {
    throw Error(ErrorKind::Catalog, fmt::format("table \"{}\" does not exist{}", name,
                                                did_you_mean(name, table_names())));
  }
  return t;
}

namespace {

// "the SELECT at line 3": how an out-of-memory error names the statement that ran out.
std::string statement_name(const ast::Statement& statement) {
  std::string_view text = statement.text;
  size_t start = text.find_first_not_of(" \t\r\n(");
  size_t end = start == std::string_view::npos ? start : text.find_first_of(" \t\r\n(", start);
  std::string keyword(start == std::string_view::npos ? "" : text.substr(start, end - start));
  for (char& c : keyword) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return fmt::format("the {} at line {}", keyword.empty() ? "statement" : keyword,
                     statement.location.line);
}

}  // namespace

ExecOptions Database::with_settings(const ExecOptions& options) const {
  std::lock_guard lock(settings_mutex_);
  return settings_->apply(options);
}

void Database::reset_setting(const std::string& name) {
  std::lock_guard lock(settings_mutex_);
  settings_->reset(name, {});
}

StatementOutcome Database::execute(const ast::Statement& statement, const ExecOptions& options) {
  auto start = std::chrono::steady_clock::now();
  const ExecOptions effective = with_settings(options);
  StatementOutcome outcome = reporting_out_of_memory(
      statement_name(statement), [&] { return execute_body(statement, effective); });
  // SELECTs time their execution themselves (without binding); other statements here.
  if (outcome.timings.execute_ms == 0) {
    outcome.timings.execute_ms =
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  }
  return outcome;
}

StatementOutcome Database::execute_body(const ast::Statement& statement,
                                        const ExecOptions& options) {
  return std::visit(
      [&](const auto& body) -> StatementOutcome {
        using T = std::decay_t<decltype(body)>;
        if constexpr (std::is_same_v<T, ast::SelectStmt>) {
          return run_select(body, statement.parameter_count, options, statement.text);
        } else if constexpr (std::is_same_v<T, ast::CreateTableStmt>) {
          return changing_table(body.name, [&] { return run_create(body, options); });
        } else if constexpr (std::is_same_v<T, ast::DropTableStmt>) {
          return changing_table(body.name, [&] { return run_drop(body); });
        } else if constexpr (std::is_same_v<T, ast::CopyStmt>) {
          return changing_table(body.table, [&] { return run_copy(body, options); });
        } else if constexpr (std::is_same_v<T, ast::InsertStmt>) {
          return changing_table(body.table, [&] { return run_insert(body, options); });
        } else if constexpr (std::is_same_v<T, ast::CopyToStmt>) {
          return run_copy_to(body, options);
        } else if constexpr (std::is_same_v<T, ast::SetStmt>) {
          return run_set(body);
        } else if constexpr (std::is_same_v<T, ast::ShowStmt>) {
          return run_show(body, options);
        } else if constexpr (std::is_same_v<T, ast::DescribeStmt>) {
          return run_describe(body);
        } else {
          return run_explain(body, statement.parameter_count);
        }
      },
      statement.body);
}

void Database::execute_script(std::string_view sql, const ExecOptions& options,
                              const std::function<void(const StatementOutcome&)>& on_outcome) {
  auto start = std::chrono::steady_clock::now();
  std::shared_ptr<const ParsedScript> parsed = parse(sql);
  const ParsedScript& statements = *parsed;
  double parse_ms =
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  for (const auto& statement : statements) {
    // A cancel that came between two statements (or during the last one's printing) stops
    // the script before the next.
    if (options.cancelled && options.cancelled()) {
      throw Error(ErrorKind::Cancelled, "the script was cancelled before its next statement");
    }
    StatementOutcome outcome = execute(statement, options);
    outcome.timings.parse_ms = parse_ms / static_cast<double>(statements.size());
    on_outcome(outcome);
  }
}

StatementOutcome Database::run_create(const ast::CreateTableStmt& stmt,
                                      const ExecOptions& options) {
  if (table(stmt.name)) {
    if (stmt.if_not_exists) return tagged("CREATE TABLE");
    throw Error(ErrorKind::Catalog, fmt::format("table \"{}\" already exists", stmt.name));
  }
  if (stmt.as_select) return run_create_as(stmt, options);
  TableSchema schema;
  schema.name = stmt.name;
  for (const auto& def : stmt.columns) {
    if (schema.find_column(def.name) >= 0) {
      throw Error(ErrorKind::Catalog,
                  fmt::format("column \"{}\" specified more than once", def.name), def.location);
    }
    schema.columns.push_back({def.name, resolve_type_name(def.type), def.not_null});
  }
  put_table(make_empty_table(std::move(schema)));
  return tagged("CREATE TABLE");
}

StatementOutcome Database::run_drop(const ast::DropTableStmt& stmt) {
  std::lock_guard lock(mutex_);
  if (tables_.erase(stmt.name) == 0 && !stmt.if_exists) {
    throw Error(ErrorKind::Catalog, fmt::format("table \"{}\" does not exist", stmt.name));
  }
  return tagged("DROP TABLE");
}

}  // namespace tally
