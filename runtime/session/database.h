// The catalog of tables and the execution of statements against it. Each statement is
// atomic: a table is replaced whole only when its statement succeeds, so a failing
// statement leaves the catalog as it was.
#pragma once

#include <atomic>
#include <functional>
#include <future>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "compiler/bind/catalog.h"
#include "compiler/bind/subquery_values.h"
#include "compiler/ir/query.h"
#include "compiler/parse/ast.h"
#include "compiler/plan/gpu_target.h"
#include "compiler/plan/grouping_sets_choice.h"
#include "runtime/compile/kernel_tiers.h"
#include "runtime/cpu/cpu_options.h"
#include "runtime/load/load_report.h"
#include "runtime/result/result.h"
#include "runtime/session/adaptive_compile.h"
#include "runtime/session/prepared_select.h"
#include "runtime/session/statement_cache.h"
#include "runtime/storage/table.h"

namespace tally {

class BackgroundCompiler;
class GpuEngine;
struct GpuRunOptions;
class DatabaseStore;
class SessionSettings;
class QueryScope;

enum class DeviceChoice { Auto, Cpu, Gpu };

struct ExecOptions {
  DeviceChoice device = DeviceChoice::Auto;
  std::string strategy = "auto";  // GPU grouping strategy: auto, thread, block, direct, hash
  // GROUPING SETS / ROLLUP / CUBE on the GPU: auto (one pass over the rows or one GROUP BY
  // per set, as the plans of both favour: compiler/plan/grouping_sets_choice.h), one_pass (an
  // error where it cannot), per_set.
  std::string grouping_sets = "auto";
  uint64_t hash_capacity = 0;  // > 0: first GPU hash table size (to exercise growth)
  bool compile_only = false;   // SELECT: generate and NVRTC-compile, do not run
  bool emit_cuda = false;      // SELECT: also return the generated CUDA source
  // compile_only: the NVRTC target
  std::string arch = default_gpu_target().arch;
  std::vector<std::string> parameters;  // values for '?', converted to the inferred types
  bool explain = false;                 // also produce the plan text
  unsigned cpu_threads = 0;             // CPU engine threads per query; 0: one per CPU
  CpuPath cpu_path = CpuPath::Auto;     // the CPU engine's row or vector path (cpu_options.h)
  // Device memory the GPU engine may hold (columns, tables, results); 0: all there is.
  uint64_t device_memory_limit = 0;
  // Where the GPU reads a table's columns from: auto, device, or host (streamed from pinned
  // host memory in batches; runtime/gpu/streamed_scan.h). batch_rows > 0 sets the batch size.
  std::string placement = "auto";
  uint64_t batch_rows = 0;
  // The GPUs a table is split across: "" (device 0 alone), "all", or ordinals "0,1" (a device
  // named twice runs two parts on it). Each runs the same plan over its share of the rows;
  // the parts' states combine on the host (runtime/gpu/multi_gpu.h).
  std::string devices;
  // Co-processing: the GPU streams the table from host memory while the CPU engine takes
  // chunks of the same rows from the other end of its queue (runtime/gpu/coprocess.h).
  bool coprocess = false;
  // Adaptive compilation (runtime/session/adaptive_compile.h): under DeviceChoice::Auto, a
  // statement over at most adaptive_compile_rows rows whose kernels no cache holds runs on the
  // CPU engine while they compile in the background. Off here; tally run and shell turn it on.
  bool adaptive_compile = false;
  uint64_t adaptive_compile_rows = kAdaptiveCompileRows;
  // SET quick_kernels (runtime/compile/kernel_tiers.h): on (QuickFirst), a statement whose
  // kernels no cache holds runs on quick kernels while its unrolled ones compile in the
  // background; only (QuickOnly), always the quick ones. Off here; tally run and shell turn it on.
  KernelTiers kernel_tiers = KernelTiers::Unrolled;
  // SET interpreted_kernels (runtime/gpu/interpreted_scan.h): on, a statement whose kernels no
  // cache holds runs on the precompiled interpreter, where it takes the statement, while its
  // kernels compile in the background (with quick_kernels on); always, on the interpreter
  // wherever it takes the statement (tests); off. Off here; tally run and shell turn it on.
  std::string interpreted_kernels = "off";
  // Where NULLs sort when ORDER BY does not say (DuckDB's setting names); the default is
  // PostgreSQL's: last for ASC, first for DESC.
  std::string default_null_order = "nulls_last_on_asc_first_on_desc";
  // The CPU engine asks `cancelled` before each morsel and tells `progress` after it
  // (runtime/cpu/cpu_engine.h); the GPU engine asks `cancelled` before each compile and
  // launch, loads every few MB, and a script before each statement.
  std::function<bool()> cancelled = {};
  std::function<void(uint64_t done, uint64_t total)> progress = {};
  // COPY and files in FROM: told the bytes read every few MB (runtime/load/load_report.h);
  // they stop at `cancelled` too.
  std::function<void(const LoadProgress&)> load_progress = {};
};

struct Timings {
  double parse_ms = 0;
  double bind_ms = 0;
  double execute_ms = 0;
  std::string gpu;  // the GPU's own split: codegen, NVRTC, upload, each kernel, download
};

struct StatementOutcome {
  std::string tag;  // "CREATE TABLE", "COPY 6001215", "INSERT 0 3", "SELECT 4"
  std::optional<Result> result;
  std::string explain;
  std::string notice;  // e.g. which engine ran when --device auto chose
  std::string cuda;    // the generated source, when asked for
  Timings timings;
  std::optional<LoadStats> load;  // COPY, or a SELECT that read a file in FROM
};

// Options for a query that a statement runs on the CPU engine to build a table or a file
// (CREATE TABLE AS, INSERT ... SELECT, COPY ... TO): exact, and the rows end on the host
// anyway. Threads, the CPU path and cancellation carry over.
ExecOptions host_query_options(const ExecOptions& exec);

// What a load run by a statement may do: stop at Ctrl-C, tell its progress.
inline LoadControl load_control(const ExecOptions& options) {
  return {options.cancelled, options.load_progress};
}

// The outcome of a statement that returns no rows.
inline StatementOutcome tagged(std::string tag) {
  StatementOutcome outcome;
  outcome.tag = std::move(tag);
  return outcome;
}

class Database : public Catalog {
 public:
  Database();
  ~Database() override;

  const TableSchema* find_table(std::string_view name) const override;
  std::vector<std::string> table_names() const override;

  TablePtr table(std::string_view name) const;
  void put_table(TablePtr table);  // adds, or replaces the table of that name

  // Runs one statement with `options` overridden by the session's SET values.
  StatementOutcome execute(const ast::Statement& statement, const ExecOptions& options);

  // Drops a SET value, so that the caller's option is in force again (the shell's .device).
  void reset_setting(const std::string& name);

  // Opens (or creates) the database on disk at `path` (runtime/session/database_store.h):
  // its tables join the catalog, replacing any of the same name, and from now on every
  // statement that changes a table makes the change durable before it returns; a change
  // that cannot be saved fails its statement and leaves the table as it was.
  void open_store(const std::string& path);
  // The database on disk, or "" when the tables live in memory only.
  std::string store_path() const;

  // The statements of `sql`, parsed once for every call with the same text.
  std::shared_ptr<const ParsedScript> parse(std::string_view sql) { return scripts_.parse(sql); }

  // Parses the whole script first (a syntax error runs nothing), then runs the statements
  // in order, calling `on_outcome` after each; the first failing statement throws.
  void execute_script(std::string_view sql, const ExecOptions& options,
                      const std::function<void(const StatementOutcome&)>& on_outcome);

  // Parses and binds one SELECT (with `?` parameters) once. Throws on syntax, name and
  // type errors, and when `sql` is not exactly one SELECT.
  std::shared_ptr<const PreparedSelect> prepare(std::string_view sql) const;

  // Runs a prepared SELECT with options.parameters as the values of its `?`s. Rebinds
  // first if its table was replaced by one of another shape since it was prepared.
  StatementOutcome execute_prepared(const PreparedSelect& statement, const ExecOptions& options);

  // Device memory the GPU engine's pool holds (in use and cached); 0 before the first GPU
  // statement. For tests that check failing statements leak nothing.
  struct GpuMemory {
    uint64_t held = 0;
    uint64_t cached = 0;
  };
  GpuMemory gpu_memory();

  // Opens the GPU and loads the interpreted tier's module on a thread of its own
  // (GpuEngine::warm_up), so that the first statement of a session that loads its data
  // meanwhile does not wait for them: on an H100 that statement took 130 ms more than its
  // own split. The future's value is the milliseconds it took (0 without a GPU); dropping it
  // waits for the thread. warmed_interpreter() then says whether the interpreter's module was
  // loaded, or still compiling because no cache held it.
  std::future<double> warm_gpu();
  bool warmed_interpreter() const { return warmed_interpreter_; }

  // Returns once the kernels that statements queued for a background compile (SET
  // adaptive_compile) are compiled, or failed; the destructor waits for them too.
  void wait_for_compiles();

 private:
  StatementOutcome execute_body(const ast::Statement& statement, const ExecOptions& options);
  ExecOptions with_settings(const ExecOptions& options) const;  // `options` after SET
  // Runs a statement that changes table `name`, then saves the change to the store (if
  // any), putting the table back as it was when saving fails.
  StatementOutcome changing_table(const std::string& name,
                                  const std::function<StatementOutcome()>& run);
  // `text`: the statement's text, whose GPU plans a plain SELECT keeps (AdHocPlans); "" for
  // a SELECT inside another statement.
  StatementOutcome run_select(const ast::SelectStmt& stmt, int parameter_count,
                              const ExecOptions& options, const std::string& text = "");
  // WITH, derived tables, VALUES, range(), set operations and subqueries
  // (runtime/session/run_query_forms.cpp).
  StatementOutcome run_query_forms(const ast::SelectStmt& stmt, int parameter_count,
                                   const ExecOptions& options);
  StatementOutcome run_query(const ast::SelectStmt& stmt, const QueryScope& scope,
                             const ExecOptions& options);
  Result query_result(const ast::SelectStmt& stmt, const QueryScope& scope,
                      const ExecOptions& options);
  TablePtr derived_table(const ast::TableRef& ref, const QueryScope& scope,
                         const ExecOptions& options);
  Result set_operation_result(const ast::SetOperation& operation, const QueryScope& scope,
                              const ExecOptions& options);
  void run_split(const BoundSelect& query, const Table& table, const std::vector<Value>& parameters,
                 std::shared_ptr<StringHeap> strings, const GpuRunOptions& gpu_options,
                 const std::vector<int>& ordinals, const ExecOptions& options,
                 StatementOutcome& outcome);
  // `plans`: the prepared statement's plan cache, or null. `file_input`: the table a file
  // in FROM was loaded into (it is not in the catalog), or null.
  StatementOutcome run_bound(const BoundSelect& query, const ExecOptions& options,
                             StatementOutcome outcome, GpuPlanCache* plans = nullptr,
                             TablePtr file_input = nullptr);
  // Runs `query` on the engine `options` choose into outcome.result; VARCHAR results are
  // ids in `strings`.
  void run_engine(const BoundSelect& query, const TablePtr& input,
                  const std::vector<Value>& parameters, const std::shared_ptr<StringHeap>& strings,
                  const ExecOptions& options, GpuPlanCache* plans, StatementOutcome& outcome);
  // GROUPING SETS: on the GPU in one pass over the rows where that applies, else each set's
  // query through run_engine; the rows unioned and finished (run_grouping_sets.cpp).
  void run_grouping_sets(const BoundSelect& query, const TablePtr& input,
                         const std::vector<Value>& parameters,
                         const std::shared_ptr<StringHeap>& strings, const ExecOptions& options,
                         StatementOutcome& outcome);
  // SET grouping_sets = 'auto' on the GPU: one pass or a pass per set, from both ways' plans.
  GroupingSetsChoice choose_grouping_sets(const BoundSelect& query, const TablePtr& input,
                                          const std::vector<Value>& parameters,
                                          const ExecOptions& options);
  std::vector<std::vector<Value>> run_sets_in_one_pass(const BoundSelect& query,
                                                       const TablePtr& input,
                                                       const std::vector<Value>& parameters,
                                                       const std::shared_ptr<StringHeap>& strings,
                                                       const ExecOptions& options,
                                                       StatementOutcome& outcome);
  std::vector<std::vector<Value>> run_sets_one_by_one(const BoundSelect& query,
                                                      const TablePtr& input,
                                                      const std::vector<Value>& parameters,
                                                      const std::shared_ptr<StringHeap>& strings,
                                                      const ExecOptions& options,
                                                      StatementOutcome& outcome);
  // Adaptive compilation: true when the statement is to run on the CPU engine while its
  // kernels compile in the background (queued here); outcome then says so, and
  // outcome.result is left to the CPU engine (runtime/session/run_adaptive.cpp).
  bool compiles_in_background(GpuEngine& engine, const BoundSelect& query, const Table& input,
                              const std::vector<Value>& parameters,
                              const GpuRunOptions& gpu_options, const ExecOptions& options,
                              bool gpu_usable, StatementOutcome& outcome);
  StatementOutcome compile_select(const BoundSelect& query, const TablePtr& input,
                                  const ExecOptions& options, StatementOutcome outcome,
                                  GpuPlanCache* plans);
  StatementOutcome run_create(const ast::CreateTableStmt& stmt, const ExecOptions& options);
  StatementOutcome run_create_as(const ast::CreateTableStmt& stmt, const ExecOptions& options);
  StatementOutcome run_drop(const ast::DropTableStmt& stmt);
  StatementOutcome run_copy(const ast::CopyStmt& stmt, const ExecOptions& options);
  StatementOutcome run_insert(const ast::InsertStmt& stmt, const ExecOptions& options);
  StatementOutcome run_insert_select(const ast::InsertStmt& stmt, const ExecOptions& options);
  StatementOutcome run_copy_to(const ast::CopyToStmt& stmt, const ExecOptions& options);
  StatementOutcome run_set(const ast::SetStmt& stmt);
  StatementOutcome run_show(const ast::ShowStmt& stmt, const ExecOptions& options);
  StatementOutcome run_describe(const ast::DescribeStmt& stmt);
  StatementOutcome run_explain(const ast::ExplainStmt& stmt, int parameter_count);
  TablePtr existing_table(const std::string& name) const;  // throws if missing
  // Opened on first use (and dropped after an error lost the GPU context); held by the
  // caller while it runs.
  std::shared_ptr<GpuEngine> gpu();
  // One engine per entry of ExecOptions::devices (a device named twice: two engines on it,
  // the logical parts the tests split across); the first on device 0 is gpu()'s.
  std::vector<std::shared_ptr<GpuEngine>> gpus(const std::vector<int>& ordinals);

  std::mutex gpu_mutex_;
  std::shared_ptr<GpuEngine> gpu_;
  std::map<std::pair<size_t, int>, std::shared_ptr<GpuEngine>> part_engines_;

  mutable std::mutex mutex_;
  std::map<std::string, TablePtr, std::less<>> tables_;
  std::shared_ptr<DatabaseStore> store_;
  ScriptCache scripts_;
  BoundSelects bound_selects_;
  AdHocPlans adhoc_plans_;
  mutable std::mutex settings_mutex_;
  std::unique_ptr<SessionSettings> settings_;
  std::atomic<bool> warmed_interpreter_{false};  // warm_gpu's thread sets it
  // Last, so that it goes first: its thread finishes the queued compiles.
  std::unique_ptr<BackgroundCompiler> compiler_;
};

}  // namespace tally
