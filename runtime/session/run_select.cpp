// SELECT: bind, choose the engine, run, and say which engine ran.
#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <optional>
#include <string>

#include "compiler/bind/binder.h"
#include "compiler/common/elapsed.h"
#include "compiler/ir/grouping_sets.h"
#include "compiler/parse/ast_walk.h"
#include "compiler/plan/count_sum_packing.h"
#include "runtime/compile/grouping_sets_plans.h"
#include "runtime/cpu/cpu_engine.h"
#include "runtime/cuda/device.h"
#include "runtime/gpu/coprocess.h"
#include "runtime/gpu/gpu_engine.h"
#include "runtime/gpu/interpreted_scan.h"
#include "runtime/gpu/multi_gpu.h"
#include "runtime/session/database.h"
#include "runtime/session/file_tables.h"
#include "runtime/session/parameter_values.h"

namespace tally {

namespace {

// The statement's compared constants as parameters (compiler/plan/lifted_constants.h): made
// once per statement where it has a plan cache.
std::shared_ptr<const LiftedConstants> lifted_for(const BoundSelect& query, GpuPlanCache* plans) {
  return plans ? plans->lifted_constants(query) : lift_compared_constants(query);
}

std::string gpu_timing(const GpuRunReport& r) {
  const std::string reruns = r.reruns.empty() ? "" : " (" + r.reruns + ")";
  if (r.interpreted) {
    // Named only where it cost something: the module is loaded once per process.
    const std::string module =
        r.module_wait_ms >= 0.05
            ? fmt::format(", waiting for the interpreter's module {:.2f} ms", r.module_wait_ms)
            : "";
    return fmt::format(
        "interpreted (its own kernels compile in the background): plan {:.2f} ms, program "
        "{:.2f} ms{}, upload {:.2f} ms, init + scan {:.3f} ms, download {:.2f} ms, host finish "
        "{:.2f} ms, attempts {}{}",
        r.plan_ms, r.codegen_ms, module, r.upload_ms, r.scan_ms, r.download_ms, r.finish_ms,
        r.attempts, reruns);
  }
  const std::string not_interpreted =
      r.not_interpreted.empty() ? "" : "; not interpreted: " + r.not_interpreted;
  std::string kernels =
      r.dependent_finalize
          ? fmt::format("init + scan + finalize (dependent launch) {:.3f} ms", r.scan_ms)
      : r.init_in_scan ? fmt::format("init + scan (one kernel) {:.3f} ms, finalize {:.3f} ms",
                                     r.scan_ms, r.finalize_ms)
                       : fmt::format("init {:.3f} ms, scan {:.3f} ms, finalize {:.3f} ms",
                                     r.init_ms, r.scan_ms, r.finalize_ms);
  // The column bytes and their rate only when columns crossed the bus in this statement.
  std::string columns;
  if (r.column_bytes > 0) {
    columns = fmt::format(" ({:.1f} MB of columns, {:.1f} GB/s)", r.column_bytes / 1e6,
                          r.column_bytes / 1e6 / std::max(r.upload_ms, 1e-3));
  }
  if (r.upload_ahead) {
    columns += fmt::format(" beside the compile, upload after compile {:.2f} ms", r.upload_wait_ms);
  }
  return fmt::format(
      "plan {:.2f} ms, codegen {:.2f} ms, NVRTC {:.1f} ms{}{}, upload {:.2f} ms{}, {}, download "
      "{:.2f} ms, host finish {:.2f} ms, attempts {}{}; columns from {}{}",
      r.plan_ms, r.codegen_ms, r.nvrtc_ms, binary_source_note(r.binary_source, r.disk_load_ms),
      r.quick_kernels ? " (quick kernels)" : "", r.upload_ms, columns, kernels, r.download_ms,
      r.finish_ms, r.attempts, reruns, r.placement, not_interpreted);
}

}  // namespace

// The table split across several GPUs (or logical parts of one), each part's timing a line.
void Database::run_split(const BoundSelect& query, const Table& table,
                         const std::vector<Value>& parameters, std::shared_ptr<StringHeap> strings,
                         const GpuRunOptions& gpu_options, const std::vector<int>& ordinals,
                         const ExecOptions& options, StatementOutcome& outcome) {
  std::vector<std::shared_ptr<GpuEngine>> engines = gpus(ordinals);
  std::vector<GpuEngine*> parts;
  for (const auto& engine : engines) parts.push_back(engine.get());
  std::vector<GpuRunReport> reports;
  outcome.result = run_on_gpus(parts, query, table, parameters, strings, gpu_options, &reports);
  for (size_t p = 0; p < reports.size(); ++p) {
    outcome.timings.gpu += fmt::format("{}part {} on GPU {}: {}", p ? "\n" : "", p, ordinals[p],
                                       gpu_timing(reports[p]));
  }
  if (options.explain && !reports.empty()) outcome.explain += reports[0].plan;
  if (options.emit_cuda && !reports.empty()) outcome.cuda = reports[0].source;
}

StatementOutcome Database::run_select(const ast::SelectStmt& stmt, int parameter_count,
                                      const ExecOptions& options, const std::string& text) {
  if (ast::uses_query_forms(stmt)) return run_query_forms(stmt, parameter_count, options);
  StatementOutcome outcome;
  auto start = std::chrono::steady_clock::now();
  if (stmt.from && stmt.from->is_file) {
    FileSelect file = bind_file_select(stmt, *this, parameter_count, load_control(options));
    outcome.load = file.stats;
    outcome.timings.bind_ms = ms_since(start);  // the file's load included
    return run_bound(file.query, options, std::move(outcome), nullptr, std::move(file.input));
  }
  std::shared_ptr<const BoundSelect> bound;
  if (!text.empty()) bound = bound_selects_.find(text, *this);
  if (!bound) {
    bound = std::make_shared<const BoundSelect>(bind_select(stmt, *this, parameter_count));
    if (!text.empty()) bound_selects_.keep(text, bound, *this);
  }
  const BoundSelect& query = *bound;
  outcome.timings.bind_ms = ms_since(start);
  std::shared_ptr<GpuPlanCache> plans;
  if (!text.empty() && options.device != DeviceChoice::Cpu) {
    plans = adhoc_plans_.plans_for(text, find_table(query.table), options.default_null_order);
  }
  return run_bound(query, options, std::move(outcome), plans.get());
}

namespace {

// Where the default_null_order setting places a sort key's NULLs (NULLS FIRST/LAST given or
// not).
bool nulls_first_under(const SortKey& key, const std::string& order) {
  if (key.nulls_given) return key.nulls_first;
  if (order == "nulls_first") return true;
  if (order == "nulls_last") return false;
  if (order == "nulls_first_on_asc_last_on_desc") return !key.descending;
  if (order == "nulls_last_on_asc_first_on_desc") return key.descending;
  return key.nulls_first;
}

// The query with its sort keys' NULLs placed as the default_null_order setting says: `bound`
// itself where that changes nothing (a copy of the bound query cost a repeated statement
// microseconds), else a copy in `adjusted`.
const BoundSelect& with_null_order(const BoundSelect& bound, const std::string& order,
                                   std::optional<BoundSelect>& adjusted) {
  auto unchanged = [&](const SortKey& key) {
    return nulls_first_under(key, order) == key.nulls_first;
  };
  if (std::all_of(bound.order_by.begin(), bound.order_by.end(), unchanged)) return bound;
  BoundSelect& query = adjusted.emplace(bound);
  for (SortKey& key : query.order_by) key.nulls_first = nulls_first_under(key, order);
  return query;
}

// What `tally compile` plans for: options.arch, and the limits of the GPU in hand where it is
// of that arch, so that a later run here generates the same source and finds these kernels
// in the disk cache (tally prepare relies on it).
GpuCompileOptions compile_target(const ExecOptions& options, const Table& input) {
  GpuCompileOptions compile;
  compile.strategy = strategy_from_name(options.strategy);
  compile.hash_capacity = options.hash_capacity;
  compile.arch = options.arch;
  GpuTarget here = cuda::gpu_target_in_hand();
  if (here.arch == options.arch) compile.limits = here.limits;
  compile.table = &input;
  return compile;
}

// For `tally compile --explain` of grouping sets: the way a run under auto would take, from
// the plans for the compile target (a run plans for the GPU in hand and its profile).
std::string explain_auto_grouping_sets(const BoundSelect& query, const Table& input,
                                       const ExecOptions& options) {
  GpuCompileOptions compile = compile_target(options, input);
  StringHeap strings;
  std::vector<Value> parameters;
  if (!options.parameters.empty()) {
    parameters = convert_parameters(query, options.parameters, strings);
    compile.parameters = &parameters;
  }
  const GroupingSetsChoice choice = plan_grouping_sets_way(query, input, compile);
  return fmt::format("grouping sets: compiled the one pass; under auto a run would take {}: {}\n{}",
                     choice.one_pass ? "it" : "a GROUP BY pass per set", choice.reason,
                     choice.ways);
}

}  // namespace

StatementOutcome Database::run_bound(const BoundSelect& bound, const ExecOptions& options,
                                     StatementOutcome outcome, GpuPlanCache* plans,
                                     TablePtr file_input) {
  std::optional<BoundSelect> adjusted;
  const BoundSelect& query = with_null_order(bound, options.default_null_order, adjusted);
  if (options.explain) outcome.explain = explain(query);
  TablePtr input = file_input            ? std::move(file_input)
                   : query.table.empty() ? nullptr
                                         : table(query.table);
  if (!query.table.empty() && !input) {
    throw Error(ErrorKind::Catalog, fmt::format("table \"{}\" does not exist", query.table));
  }
  if (options.compile_only) {
    if (!query.grouping_sets.empty()) {
      if (options.grouping_sets == "per_set" && query.grouping_sets.size() > 1) {
        throw Error(ErrorKind::Unsupported,
                    "compiling GROUPING SETS, ROLLUP or CUBE ahead is not supported with SET "
                    "grouping_sets = 'per_set' (each set is planned when executed)");
      }
      if (query.grouping_sets.size() == 1) {
        return compile_select(split_grouping_sets(query)[0], input, options, std::move(outcome),
                              nullptr);
      }
      // The GPU's one pass over every set (run_grouping_sets.cpp); --explain also says which
      // way a run under auto would take.
      outcome = compile_select(one_pass_grouping_query(query), input, options, std::move(outcome),
                               nullptr);
      if (options.explain && options.grouping_sets == "auto") {
        outcome.explain += explain_auto_grouping_sets(query, *input, options);
      }
      return outcome;
    }
    return compile_select(query, input, options, std::move(outcome), plans);
  }

  auto start = std::chrono::steady_clock::now();
  auto strings = std::make_shared<StringHeap>();
  std::vector<Value> parameters = convert_parameters(query, options.parameters, *strings);
  if (query.grouping_sets.empty()) {
    run_engine(query, input, parameters, strings, options, plans, outcome);
  } else {
    // Its passes run one engine each, chosen once for the statement: none moves to the CPU
    // engine for a compile, so its device is one.
    ExecOptions sets = options;
    sets.adaptive_compile = false;
    run_grouping_sets(query, input, parameters, strings, sets, outcome);
  }
  outcome.timings.execute_ms = ms_since(start);
  outcome.tag = fmt::format("SELECT {}", outcome.result->rows.size());
  return outcome;
}

void Database::run_engine(const BoundSelect& query, const TablePtr& input,
                          const std::vector<Value>& parameters,
                          const std::shared_ptr<StringHeap>& strings, const ExecOptions& options,
                          GpuPlanCache* plans, StatementOutcome& outcome) {
  bool try_gpu = options.device == DeviceChoice::Gpu;
  std::optional<std::string> why_not;
  if (options.device == DeviceChoice::Auto) {
    why_not = input ? cuda::why_gpu_unusable() : std::string("a query without FROM");
    try_gpu = !why_not;
    if (why_not) outcome.notice = "ran on the CPU engine: " + *why_not;
  }
  if (try_gpu) {
    if (!input)
      throw Error(ErrorKind::Unsupported, "a query without FROM is not supported on the GPU");
    try {
      GpuRunOptions gpu_options;
      gpu_options.strategy = strategy_from_name(options.strategy);
      gpu_options.hash_capacity = options.hash_capacity;
      gpu_options.plans = plans;
      gpu_options.device_memory_limit = options.device_memory_limit;
      gpu_options.placement = placement_from_name(options.placement);
      gpu_options.batch_rows = options.batch_rows;
      gpu_options.cancelled = options.cancelled;
      gpu_options.kernel_tiers = {options.kernel_tiers, compiler_.get()};
      gpu_options.interpreted = options.interpreted_kernels == "always" ? InterpretedTier::Always
                                : options.interpreted_kernels == "on"   ? InterpretedTier::WhenReady
                                                                        : InterpretedTier::Off;
      gpu_options.describe = options.explain || options.emit_cuda;
      const std::vector<int> ordinals = device_ordinals(options.devices);
      if (options.coprocess) {
        if (ordinals.size() > 1) {
          throw Error(ErrorKind::Unsupported,
                      "co-processing splits a table between one GPU and the CPU engine, not "
                      "several GPUs");
        }
        auto engine = ordinals.empty() ? gpu() : gpus(ordinals)[0];
        CoprocessReport report;
        outcome.result =
            run_coprocessed(*engine, query, *input, parameters, strings, gpu_options, &report);
        outcome.timings.gpu =
            gpu_timing(report.gpu) + "\n" + describe_cpu_part(report, input->rows());
        if (options.explain) outcome.explain += report.gpu.plan;
      } else if (ordinals.size() > 1) {
        run_split(query, *input, parameters, strings, gpu_options, ordinals, options, outcome);
      } else {
        auto engine = ordinals.empty() ? gpu() : gpus(ordinals)[0];
        // Its compared constants as parameters: a statement that differs only in them finds
        // these kernels in the caches (compiler/plan/lifted_constants.h).
        std::shared_ptr<const LiftedConstants> lifted = lifted_for(query, plans);
        const BoundSelect& gpu_query = lifted ? lifted->query : query;
        const std::vector<Value> gpu_parameters =
            lifted_parameters(query, parameters, lifted.get());
        // Else the CPU engine below runs it while its kernels compile.
        if (!compiles_in_background(*engine, gpu_query, *input, gpu_parameters, gpu_options,
                                    options, !why_not, outcome)) {
          GpuRunReport report;
          outcome.result =
              engine->run(gpu_query, *input, gpu_parameters, strings, gpu_options, &report);
          outcome.timings.gpu = gpu_timing(report);
          if (options.explain) outcome.explain += report.plan;
          if (options.emit_cuda) outcome.cuda = report.source;
        }
      }
    } catch (const Error& e) {
      // --device auto falls back only for what the GPU path does not do, and says so.
      if (options.device != DeviceChoice::Auto || e.kind() != ErrorKind::Unsupported) throw;
      outcome.notice = fmt::format("ran on the CPU engine: {}", e.what());
    }
  }
  if (!outcome.result) {
    CpuOptions cpu;
    cpu.strings = strings;
    cpu.threads = options.cpu_threads;
    cpu.path = options.cpu_path;
    cpu.cancelled = options.cancelled;
    cpu.progress = options.progress;
    outcome.result = run_cpu(query, input.get(), parameters, cpu);
  }
}

StatementOutcome Database::compile_select(const BoundSelect& bound, const TablePtr& input,
                                          const ExecOptions& options, StatementOutcome outcome,
                                          GpuPlanCache* plans) {
  if (!input)
    throw Error(ErrorKind::Unsupported, "a query without FROM is not supported on the GPU");
  GpuCompileOptions compile = compile_target(options, *input);
  // Values given with the statement plan as a run with them would (`tally compile -p`); its
  // compared constants become parameters as in a run, so that the run finds these kernels.
  StringHeap strings;
  std::vector<Value> parameters;
  if (!options.parameters.empty())
    parameters = convert_parameters(bound, options.parameters, strings);
  std::shared_ptr<const LiftedConstants> lifted = lifted_for(bound, plans);
  const BoundSelect& query = lifted ? lifted->query : bound;
  parameters = lifted_parameters(bound, std::move(parameters), lifted.get());
  if (!parameters.empty()) compile.parameters = &parameters;
  std::vector<ColumnStats> stats = scan_stats(query, *input);
  GpuPlan plan = plan_for(query, stats, input->rows(), compile);
  // Compiling ahead fills the caches with the kernels later runs take: the unrolled ones,
  // unless the session keeps to the quick ones.
  const KernelTiers tiers = options.kernel_tiers == KernelTiers::QuickOnly ? KernelTiers::QuickOnly
                                                                           : KernelTiers::Unrolled;
  GpuCompilation c = compile_in_tiers(query, stats, plan, options.arch, plans, {tiers, nullptr});
  if (options.explain) {
    outcome.explain += describe_plan(plan) + describe_count_sum_packing(plan, query, stats) +
                       describe_interpreted(query, *input, stats, parameters, strings);
  }
  if (options.emit_cuda) outcome.cuda = c.program->source;
  outcome.tag = fmt::format("COMPILE {} ({} bytes of {})", options.arch, c.binary->image.size(),
                            c.binary->is_ptx ? "PTX" : "cubin");
  // As in gpu_timing: NVRTC time only when this statement paid for it.
  double nvrtc_ms = c.source == BinarySource::Nvrtc ? c.binary->compile_ms : 0;
  outcome.timings.gpu = fmt::format("codegen {:.2f} ms, NVRTC {:.1f} ms{}", c.codegen_ms, nvrtc_ms,
                                    binary_source_note(c.source, c.disk_load_ms));
  return outcome;
}

}  // namespace tally
