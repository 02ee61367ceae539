#include "runtime/gpu/interpreted_scan.h"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <cstring>
#include <exception>
#include <variant>

#include "compiler/codegen/row_program.h"
#include "compiler/common/byte_size.h"
#include "compiler/common/elapsed.h"
#include "runtime/compile/gpu_compile.h"
#include "runtime/compile/kernel_cache.h"
#include "runtime/gpu/gpu_engine_impl.h"
#include "runtime/gpu/interpreted_top.h"
#include "runtime/gpu/state_cells.h"
#include "runtime/result/result_builder.h"
#include "templates/tally_interp_limits.cuh"
#include "templates/tally_status.cuh"

namespace tally {

namespace {

constexpr uint32_t kBlocksPerSm = 8;
constexpr uint64_t kEmptyKey = ~uint64_t{0};
constexpr int kMaxAttempts = 4;      // a full table doubles; after this many the statement compiles
constexpr uint64_t kTableShare = 4;  // the most of the device's memory a table takes: 1/4

// The DISTINCT set's entries: a first set's at most 2^24 (384 MiB), grown on the device's word.
constexpr uint64_t kDistinctFirstMax = uint64_t{1} << 24;

// Appends `values` to `blob` at a 16-byte boundary; returns their offset.
template <class T>
uint64_t append(std::vector<uint8_t>& blob, const std::vector<T>& values) {
  const uint64_t at = (blob.size() + 15) / 16 * 16;
  blob.resize(at + values.size() * sizeof(T));
  if (!values.empty()) std::memcpy(blob.data() + at, values.data(), values.size() * sizeof(T));
  return at;
}

// The program in one device buffer; `param` points into it.
struct DeviceProgram {
  cuda::DeviceBuffer buffer;
  tally_interp::Program param;
};

template <class T>
const T* device_address(const cuda::DeviceBuffer& buffer, uint64_t offset) {
  return reinterpret_cast<const T*>(buffer.ptr() + offset);
}

DeviceProgram upload_program(GpuEngine::Impl& engine, const RowProgram& p, const BoundSelect& query,
                             const Table& table) {
  std::vector<tally_interp::Column> columns;
  for (const RowProgramColumn& c : p.columns) {
    const DeviceColumn& d =
        engine.upload_column(table.columns[query.scan[c.scan_column].table_column]);
    columns.push_back(tally_interp::Column{
        reinterpret_cast<const void*>(d.data.ptr()),
        d.validity.empty() ? nullptr : reinterpret_cast<const tally_interp::u64*>(d.validity.ptr()),
        c.base, c.bits, static_cast<uint32_t>(c.kind)});
  }
  std::vector<uint8_t> blob;
  const uint64_t instrs = append(blob, p.instrs), cols = append(blob, columns);
  const uint64_t keys = append(blob, p.keys), fields = append(blob, p.fields);
  const uint64_t lookups = append(blob, p.lookups);
  DeviceProgram d;
  d.buffer = engine.pool.allocate(std::max<size_t>(blob.size(), 16), "the interpreter's program");
  d.buffer.upload(blob.data(), blob.size());
  d.param = tally_interp::Program{device_address<tally_interp::Instr>(d.buffer, instrs),
                                  device_address<tally_interp::Column>(d.buffer, cols),
                                  device_address<tally_interp::Key>(d.buffer, keys),
                                  device_address<tally_interp::Field>(d.buffer, fields),
                                  device_address<tally_interp::u64>(d.buffer, lookups),
                                  static_cast<int>(p.instrs.size()),
                                  static_cast<int>(p.keys.size()),
                                  static_cast<int>(p.fields.size()),
                                  p.filter,
                                  p.faults ? 1 : 0};
  return d;
}

// The groups' keys and cells after a run: slots in order, cells group-major.
InterpretedGroups download_groups(const cuda::DeviceBuffer& keys, const cuda::DeviceBuffer& cells,
                                  uint64_t slots, size_t fields) {
  std::vector<uint64_t> key_words(slots);
  keys.download(key_words.data(), slots * 8);
  std::vector<int128> field_major(slots * fields);
  cells.download(field_major.data(), field_major.size() * 16);
  InterpretedGroups d;
  for (uint64_t s = 0; s < slots; ++s) {
    if (key_words[s] == kEmptyKey) continue;
    d.groups.push_back(s + 1 == slots ? kEmptyKey : key_words[s]);
    for (size_t f = 0; f < fields; ++f) d.cells.push_back(field_major[f * slots + s]);
  }
  return d;
}

// The DISTINCT set's entries (tally_distinct.cuh: state tag + 2 once written, value low, high).
std::vector<DistinctValue> download_distinct(const cuda::DeviceBuffer& words, uint64_t capacity) {
  std::vector<uint64_t> host(3 * capacity);
  if (capacity > 0) words.download(host.data(), host.size() * 8);
  std::vector<DistinctValue> values;
  for (uint64_t e = 0; e < capacity; ++e) {
    const uint64_t state = host[3 * e];
    if (state < 2) continue;
    const uint64_t tag = state - 2;
    values.push_back(DistinctValue{tag / tally_interp::kDistinctTags,
                                   static_cast<uint32_t>(tag % tally_interp::kDistinctTags),
                                   static_cast<int64_t>(host[3 * e + 1])});
  }
  return values;
}

// The first table's slots and DISTINCT set's entries: twice the groups the keys' domain or the
// rows allow, and twice the set's bound; `first_capacity` > 0 sets both (tests of growth).
struct Capacities {
  uint64_t table, distinct;
};

Capacities first_capacities(const RowProgram& p, uint64_t rows, uint64_t first_capacity) {
  const bool distinct = std::any_of(p.fields.begin(), p.fields.end(), [](const auto& f) {
    return f.op == tally_interp::kFieldDistinct;
  });
  Capacities c{std::max<uint64_t>(64, 2 * std::min<uint64_t>(p.groups, rows + 1)),
               distinct ? std::clamp<uint64_t>(2 * p.distinct_values, 1024, kDistinctFirstMax) : 0};
  if (first_capacity > 0) c = {first_capacity, distinct ? first_capacity : 0};
  return c;
}

// Why a table of these capacities is more than the interpreter takes of the device's memory,
// or "": a large result's table (RowProgram::selects_top) follows the keys' domain, where the
// statement's own kernels would hold the columns beside fewer bytes a slot.
std::string table_too_large(GpuEngine::Impl& engine, const Capacities& c, uint64_t fields) {
  const uint64_t memory =
      engine.pool.limit() > 0 ? engine.pool.limit() : engine.device.profile().total_memory;
  const uint64_t bytes = (c.table + 1) * (8 + 16 * std::max<uint64_t>(1, fields)) + 24 * c.distinct;
  if (memory == 0 || bytes <= memory / kTableShare) return "";
  return fmt::format("the interpreter's table would take {} of the device's {}",
                     format_bytes(bytes), format_bytes(memory));
}

// One attempt's table, states, DISTINCT set and status word on the device.
struct DeviceTable {
  cuda::DeviceBuffer keys, cells, set, status;
  InterpretedTableParam param;

  DeviceTable(GpuEngine::Impl& engine, const Capacities& c, uint64_t fields)
      : keys(engine.pool.allocate((c.table + 1) * 8, "the interpreter's table")),
        cells(engine.pool.allocate(std::max<uint64_t>(1, fields) * (c.table + 1) * 16,
                                   "the interpreter's states")),
        set(engine.pool.allocate(c.distinct * 24, "the interpreter's DISTINCT set")),
        status(engine.pool.allocate(16, "a status word")),
        param{keys.ptr(), c.table, status.ptr(), cells.ptr(), c.table + 1, set.ptr(), c.distinct} {
    status.fill_bytes(0);
  }
};

// Clears the table and runs the Scan over `rows` rows; the status word it leaves.
uint32_t scan_into(GpuEngine::Impl& engine, const DeviceTable& t,
                   const tally_interp::Program& program, const RowProgram& p, uint64_t rows) {
  const uint64_t fields = std::max<uint64_t>(1, p.fields.size());
  cuda::LaunchConfig config;
  config.block = kInterpThreads;
  config.grid = launch_grid(std::max(t.param.slots * fields, 3 * t.param.distinct_capacity));
  cuda::launch(engine.interpreter.init(), config, t.param, program);
  const bool shared =
      p.groups <= kInterpSharedSlots && p.fields.size() * p.groups <= kInterpSharedCells;
  const uint32_t shared_groups = shared ? static_cast<uint32_t>(p.groups) : 0;
  config.grid = engine.interpreter.grid();
  cuda::launch(engine.interpreter.scan(), config, t.param, program, rows, shared_groups);
  uint32_t word = 0;
  t.status.download(&word, sizeof word);
  return word;
}

}  // namespace

RowProgramInputs row_program_inputs(const BoundSelect& query, const Table& table,
                                    const std::vector<ColumnStats>& stats,
                                    const std::vector<Value>& parameters, StringHeap* strings) {
  RowProgramInputs in{query, stats, table.rows(), parameters, {}, strings};
  for (const ScanColumn& c : query.scan) {
    const Column& column = *table.columns[c.table_column];
    in.dictionaries.push_back(c.type.is_string() ? &column.dictionary() : nullptr);
  }
  return in;
}

std::string describe_interpreted(const BoundSelect& query, const Table& table,
                                 const std::vector<ColumnStats>& stats,
                                 const std::vector<Value>& parameters, StringHeap& strings) {
  const auto program =
      compile_row_program(row_program_inputs(query, table, stats, parameters, &strings));
  if (const auto* why = std::get_if<std::string>(&program)) {
    return fmt::format("interpreted tier: declines it ({})\n", *why);
  }
  const RowProgram& p = std::get<RowProgram>(program);
  return fmt::format(
      "interpreted tier: runs it until its own kernels are compiled "
      "({} instructions, {} registers, {} state fields, at most {} groups, {} lookup words{}{})\n",
      p.instrs.size(), p.registers, p.fields.size(), std::min<uint64_t>(p.groups, table.rows()),
      p.lookups.size(),
      p.faults ? "; a divisor may be 0: a row that divides by it takes the statement's own kernels"
               : "",
      p.selects_top ? "; the device keeps the groups the first ORDER BY key puts first"
      : p.large
          ? fmt::format("; kept where the run makes at most {} of them", kInterpretedGroupsMax)
          : std::string());
}

struct InterpreterKernels::Loaded {
  std::shared_ptr<const cuda::CompiledKernel> binary;
  cuda::Module module;
  cuda::Kernel init, scan, rank, rank_histogram, gather;
  uint32_t grid;

  Loaded(std::shared_ptr<const cuda::CompiledKernel> b, int sm_count)
      : binary(std::move(b)),
        module(binary->image),
        init(module.kernel("tally_interp_init")),
        scan(module.kernel("tally_interp_scan")),
        rank(module.kernel("tally_interp_rank")),
        rank_histogram(module.kernel("tally_interp_rank_histogram")),
        gather(module.kernel("tally_interp_gather")),
        grid(static_cast<uint32_t>(std::max(1, sm_count)) * kBlocksPerSm) {}
};

InterpreterKernels::InterpreterKernels() = default;
InterpreterKernels::~InterpreterKernels() {
  if (compiling_.valid()) compiling_.wait();
}

std::string interpreter_source() {
  return "// tally's interpreted tier (runtime/gpu/interpreted_scan.h)\n"
         "#include \"tally_interp_top.cuh\"\n";
}

bool InterpreterKernels::ready(const cuda::Device& device, bool wait) {
  std::lock_guard lock(mutex_);
  if (loaded_) return true;
  if (!error_.empty()) return false;
  const std::string arch = device.profile().target().arch;
  try {
    if (!compiling_.valid()) {
      if (!wait && !source_cached(interpreter_source(), arch)) {
        compiling_ = std::async(std::launch::async, [arch] {
          return compile_into_caches(interpreter_source(), arch, warn_on_stderr);
        });
        return false;
      }
      loaded_ =
          std::make_unique<Loaded>(compile_into_caches(interpreter_source(), arch, warn_on_stderr),
                                   device.profile().sm_count);
      return true;
    }
    if (!wait && compiling_.wait_for(std::chrono::seconds(0)) != std::future_status::ready)
      return false;
    loaded_ = std::make_unique<Loaded>(compiling_.get(), device.profile().sm_count);
  } catch (const std::exception& e) {
    error_ = e.what();
    return false;
  }
  return true;
}

bool InterpreterKernels::loaded() const {
  std::lock_guard lock(mutex_);
  return loaded_ != nullptr;
}

const cuda::Kernel& InterpreterKernels::init() const { return loaded_->init; }
const cuda::Kernel& InterpreterKernels::scan() const { return loaded_->scan; }
const cuda::Kernel& InterpreterKernels::rank() const { return loaded_->rank; }
const cuda::Kernel& InterpreterKernels::rank_histogram() const { return loaded_->rank_histogram; }
const cuda::Kernel& InterpreterKernels::gather() const { return loaded_->gather; }
uint32_t InterpreterKernels::grid() const { return loaded_->grid; }

std::optional<Result> run_interpreted(GpuEngine::Impl& engine, const BoundSelect& query,
                                      const Table& table, const std::vector<ColumnStats>& stats,
                                      const std::vector<Value>& parameters,
                                      std::shared_ptr<StringHeap> strings, bool wait,
                                      uint64_t first_capacity, std::future<double>& columns_ahead,
                                      GpuRunReport& report, std::string* why) {
  auto start = std::chrono::steady_clock::now();
  auto compiled =
      compile_row_program(row_program_inputs(query, table, stats, parameters, strings.get()));
  report.codegen_ms += ms_since(start);
  if (auto* reason = std::get_if<std::string>(&compiled)) {
    *why = *reason;
    return std::nullopt;
  }
  start = std::chrono::steady_clock::now();
  const bool ready = engine.interpreter.ready(engine.device, wait);
  report.module_wait_ms += ms_since(start);
  if (!ready) {
    *why = engine.interpreter.error().empty() ? "the interpreter's kernels are compiling"
                                              : engine.interpreter.error();
    return std::nullopt;
  }
  const RowProgram& p = std::get<RowProgram>(compiled);
  const uint64_t needed = p.selects_top ? rows_needed(query, parameters) : 0;
  if (needed > kInterpretedGroupsMax) {
    *why = fmt::format("LIMIT keeps {} rows of a large result", needed);
    return std::nullopt;
  }
  // Only now: a statement the interpreter does not take keeps its copy beside the compile.
  if (columns_ahead.valid()) report.upload_ms += columns_ahead.get();
  auto upload_start = std::chrono::steady_clock::now();
  DeviceProgram program = upload_program(engine, p, query, table);
  report.upload_ms += ms_since(upload_start);
  Capacities capacities = first_capacities(p, table.rows(), first_capacity);
  for (int attempt = 1;; ++attempt) {
    *why = table_too_large(engine, capacities, p.fields.size());
    if (!why->empty()) return std::nullopt;
    auto kernels_start = std::chrono::steady_clock::now();
    const DeviceTable t(engine, capacities, p.fields.size());
    const uint32_t word = scan_into(engine, t, program.param, p, table.rows());
    report.scan_ms += ms_since(kernels_start);
    // A row's division by zero (row_faults) is no table to grow: the statement's own kernels
    // raise the CPU engine's error.
    const uint32_t grows = kStatusTableFull | kStatusDistinctFull;
    if (word != 0 && (word & ~grows) == 0 && attempt < kMaxAttempts) {
      if (word & kStatusTableFull) {
        capacities.table *= 2;
        add_rerun(report.reruns, "the interpreter's table filled up and grew");
      }
      if (word & kStatusDistinctFull) {
        capacities.distinct *= 4;
        add_rerun(report.reruns, "the interpreter's DISTINCT set filled up and grew");
      }
      continue;
    }
    if (word != 0) {
      *why = word & kStatusDivisionByZero
                 ? "a row divides by zero, and the statement's own kernels raise the error"
             : word & kStatusTableFull ? "the interpreter's table filled up"
                                       : "the interpreter's DISTINCT set filled up";
      return std::nullopt;
    }
    auto download_start = std::chrono::steady_clock::now();
    uint64_t made = 0;
    std::optional<InterpretedGroups> kept =
        p.selects_top ? download_top_groups(engine, t.param, program.param, p, needed)
        : p.large     ? download_few_groups(engine, t.param, program.param, p, &made)
                      : download_groups(t.keys, t.cells, t.param.slots, p.fields.size());
    if (!kept) {
      *why = p.selects_top
                 ? "the first ORDER BY key ties over more groups than the host finishes"
                 : fmt::format("the run made {} groups, more than the host finishes", made);
      return std::nullopt;
    }
    const std::vector<DistinctValue> values = download_distinct(t.set, capacities.distinct);
    report.download_ms += ms_since(download_start);
    auto finish_start = std::chrono::steady_clock::now();
    Result result = finish_interpreted(p, query, table, kept->groups, std::move(kept->cells),
                                       values, strings, parameters);
    report.finish_ms += ms_since(finish_start);
    report.interpreted = true;
    report.attempts = attempt;
    return result;
  }
}

}  // namespace tally
