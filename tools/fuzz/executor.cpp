#include "tools/fuzz/executor.h"

#include <fmt/format.h>

#include <iostream>
#include <typeinfo>

#include "runtime/compile/gpu_compile.h"
#include "runtime/session/database.h"
#include "tools/fuzz/compare.h"

namespace tally::fuzz {

namespace {

constexpr size_t kSlotsKept = 12;  // contexts whose engines stay built (setup costs ms)

// An Error is a fine outcome unless it is Internal or says nothing.
std::optional<std::string> judge(const Error& e, const char* where) {
  if (e.kind() == ErrorKind::Internal)
    return fmt::format("{}: internal error: {}", where, e.what());
  if (std::string_view(e.what()).empty())
    return fmt::format("{}: {} with an empty message", where, error_kind_name(e.kind()));
  return std::nullopt;
}

// Runs `f`; whatever escapes that is not a tally::Error is a finding, and so is an Error
// that judge() refuses. `error` receives an Error that is a fine outcome.
template <typename F>
std::optional<std::string> guarded(const char* where, std::optional<Error>& error, F&& f) {
  try {
    f();
    return std::nullopt;
  } catch (const Error& e) {
    error = e;
    return judge(e, where);
  } catch (const std::exception& e) {
    return fmt::format("{}: {} escaped: {}", where, typeid(e).name(), e.what());
  } catch (...) {
    return fmt::format("{}: an exception that is not a std::exception escaped", where);
  }
}

// Reads every cell as the tally command prints it: the result's own code runs too.
void touch_cells(const ResultSet& r) {
  for (size_t i = 0; i < r.row_count(); ++i)
    for (size_t c = 0; c < r.column_count(); ++c) (void)r.get_text(i, c);
}

}  // namespace

struct Executor::Slot {
  Context context;
  std::unique_ptr<Engine> cpu;
  std::unique_ptr<Engine> gpu;
  std::unique_ptr<Database> db;  // for the code generator; built on first use
};

Executor::Executor(ExecutorOptions options) : options_(std::move(options)) {}
Executor::~Executor() = default;

void Executor::setup_engine(Engine& engine, const Context& context) {
  // A .test file's setup statement may fail on purpose (the file checks its errors too);
  // the fuzz schema's must not, or the generated statements would query empty tables.
  for (const auto& sql : context_setup(context, options_.source_dir)) {
    try {
      engine.execute(sql);
    } catch (const Error&) {
      if (context.file.empty()) throw;
    }
  }
}

Executor::Slot& Executor::slot_for(const Context& context) {
  for (auto it = slots_.begin(); it != slots_.end(); ++it) {
    if ((*it)->context == context) {
      slots_.splice(slots_.begin(), slots_, it);
      return *slots_.front();
    }
  }
  auto slot = std::make_unique<Slot>();
  slot->context = context;
  slot->cpu = std::make_unique<Engine>(EngineOptions{Device::Cpu, options_.cpu_threads});
  setup_engine(*slot->cpu, context);
  if (options_.gpu) {
    slot->gpu = std::make_unique<Engine>(EngineOptions{Device::Gpu, options_.cpu_threads});
    setup_engine(*slot->gpu, context);
  }
  slots_.push_front(std::move(slot));
  if (slots_.size() > kSlotsKept) slots_.pop_back();
  return *slots_.front();
}

std::optional<std::string> Executor::run(const FuzzCase& c, uint64_t index, Counters& counters) {
  Slot& slot = slot_for(c.context);
  std::optional<ResultSet> result;
  std::optional<Error> error;
  std::optional<std::string> finding = guarded("CPU engine", error, [&] {
    result = slot.cpu->execute(c.sql);
    touch_cells(*result);
  });
  if (finding) return finding;
  counters.add(error ? kErrorSyntax + static_cast<int>(error->kind()) : kOk);
  if (options_.verbose)
    std::cerr << fmt::format(
        "#{} {}\n", index,
        error ? fmt::format("{}: {}", error_kind_name(error->kind()), error->what()) : "ok");
  if (options_.gpu) return differential(c, slot, result, error, counters);
  if (!error && options_.compile_every > 0 && index % options_.compile_every == 0) {
    ++compiled_;
    bool nvrtc = options_.nvrtc_every > 0 && compiled_ % options_.nvrtc_every == 0;
    return codegen(c, slot, nvrtc, counters);
  }
  return std::nullopt;
}

std::optional<std::string> Executor::codegen(const FuzzCase& c, Slot& slot, bool nvrtc,
                                             Counters& counters) {
  if (!slot.db) {
    slot.db = std::make_unique<Database>();
    ExecOptions cpu;
    cpu.device = DeviceChoice::Cpu;
    for (const auto& sql : context_setup(slot.context, options_.source_dir)) {
      try {
        slot.db->execute_script(sql, cpu, [](const StatementOutcome&) {});
      } catch (const Error&) {
      }
    }
  }
  std::shared_ptr<const PreparedSelect> prepared;
  std::optional<Error> error;
  // A script of several statements, or `?`, cannot be prepared: nothing to compile.
  if (auto finding = guarded("prepare", error, [&] { prepared = slot.db->prepare(c.sql); }))
    return finding;
  if (error || prepared->query.table.empty()) return std::nullopt;
  TablePtr table = slot.db->table(prepared->query.table);
  if (!table) return std::nullopt;
  counters.add(nvrtc ? kNvrtc : kCodegen);
  auto finding = guarded(nvrtc ? "codegen + NVRTC" : "codegen", error, [&] {
    if (nvrtc) {
      if (options_.before_nvrtc) options_.before_nvrtc();
      ExecOptions options;
      options.compile_only = true;  // the path of `tally compile`, for sm_90
      slot.db->execute_prepared(*prepared, options);
      return;
    }
    std::vector<ColumnStats> stats = scan_stats(prepared->query, *table);
    GpuCompileOptions options;
    options.table = table.get();
    GpuPlan plan = plan_for(prepared->query, stats, table->rows(), options);
    (void)generate_cuda(prepared->query, plan, stats);
  });
  if (finding) return finding;
  if (!error) return std::nullopt;
  if (error->kind() == ErrorKind::Unsupported) {
    counters.add(kCodegenUnsupported);
    return std::nullopt;
  }
  // The CPU engine ran it, so planning cannot meet bad SQL: any other error is the code
  // generator's (a Compile error is generated CUDA that NVRTC refused).
  return fmt::format("code generator: {}: {}", error_kind_name(error->kind()), error->what());
}

std::optional<std::string> Executor::differential(const FuzzCase& c, Slot& slot,
                                                  const std::optional<ResultSet>& cpu,
                                                  const std::optional<Error>& cpu_error,
                                                  Counters& counters) {
  std::optional<ResultSet> gpu;
  std::optional<Error> gpu_error;
  if (options_.before_nvrtc) options_.before_nvrtc();
  if (auto finding = guarded("GPU engine", gpu_error, [&] {
        gpu = slot.gpu->execute(c.sql);
        touch_cells(*gpu);
      }))
    return finding;
  if (gpu_error && gpu_error->kind() == ErrorKind::Unsupported) {
    counters.add(kGpuUnsupported);
    return std::nullopt;
  }
  counters.add(kGpuCompared);
  if (cpu_error && gpu_error) {
    if (cpu_error->kind() == gpu_error->kind()) return std::nullopt;
    return fmt::format("CPU: {}: {}; GPU: {}: {}", error_kind_name(cpu_error->kind()),
                       cpu_error->what(), error_kind_name(gpu_error->kind()), gpu_error->what());
  }
  if (cpu_error)
    return fmt::format("CPU: {}: {}; GPU ran it", error_kind_name(cpu_error->kind()),
                       cpu_error->what());
  if (gpu_error)
    return fmt::format("GPU: {}: {}; CPU ran it", error_kind_name(gpu_error->kind()),
                       gpu_error->what());
  auto diff = compare_results(*cpu, *gpu, !has_limit_or_offset(c.sql));
  if (diff) return "GPU/CPU mismatch: " + *diff;
  return std::nullopt;
}

}  // namespace tally::fuzz
