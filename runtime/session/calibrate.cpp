#include "runtime/session/calibrate.h"

#include <fmt/format.h>

#include <algorithm>
#include <limits>
#include <variant>

#include "compiler/bind/binder.h"
#include "compiler/common/error.h"
#include "compiler/parse/parser.h"
#include "runtime/compile/gpu_compile.h"
#include "runtime/gpu/gpu_engine.h"

namespace tally {

namespace {

struct Measurement {
  double kernel_ms = 0;
  bool ran = false;  // false: the strategy cannot run this query (Error(Unsupported))
};

BoundSelect bind_one(const Database& db, const std::string& sql) {
  std::vector<ast::Statement> statements = parse_script(sql);
  return bind_select(std::get<ast::SelectStmt>(statements.front().body), db,
                     statements.front().parameter_count);
}

// The fastest of `repetitions` runs: Init, Scan and Finalizer, the kernels the strategy
// decides (upload and compile happen once, before the first).
Measurement measure(GpuEngine& engine, const Database& db, const Table& table,
                    const std::string& sql, GpuStrategy strategy, int repetitions) {
  const BoundSelect query = bind_one(db, sql);
  GpuRunOptions options;
  options.strategy = strategy;
  Measurement m;
  m.kernel_ms = std::numeric_limits<double>::infinity();
  for (int r = 0; r < repetitions; ++r) {
    GpuRunReport report;
    try {
      engine.run(query, table, {}, std::make_shared<StringHeap>(), options, &report);
    } catch (const Error& e) {
      if (e.kind() == ErrorKind::Unsupported) return {};
      throw;
    }
    m.kernel_ms = std::min(m.kernel_ms, report.init_ms + report.scan_ms + report.finalize_ms);
  }
  m.ran = true;
  return m;
}

// Bytes a row of the scanned columns holds in its device encoding.
double row_bytes(const Database& db, const Table& table, const std::string& sql) {
  const BoundSelect query = bind_one(db, sql);
  double bytes = 0;
  for (const ColumnStats& s : scan_stats(query, table)) {
    bytes += s.layout == ColumnStats::Layout::BitPacked ? s.bits / 8.0 : s.plain_width;
  }
  return bytes;
}

}  // namespace

std::vector<uint64_t> CalibrateOptions::default_calibration_groups() {
  std::vector<uint64_t> groups;
  for (uint64_t k = 1; k <= (1ull << 24); k *= 4) groups.push_back(k);
  return groups;
}

StrategyRates calibrate_strategies(GpuEngine& engine, const Database& db,
                                   const std::string& table_name, const CalibrateOptions& options) {
  TablePtr table = db.table(table_name);
  if (!table)
    throw Error(ErrorKind::Catalog, fmt::format("table \"{}\" does not exist", table_name));
  StrategyRates rates;
  rates.device = engine.device_name();
  rates.rows = table->rows();
  const double rows = static_cast<double>(table->rows());
  const std::string scan = fmt::format("SELECT SUM(col2) FROM {}", table_name);
  const Measurement read =
      measure(engine, db, *table, scan, GpuStrategy::Auto, options.repetitions);
  rates.read_bytes_per_s = rows * row_bytes(db, *table, scan) / (read.kernel_ms / 1e3);
  for (uint64_t k : options.groups) {
    const std::string sql =
        fmt::format("SELECT col1 % {} AS g, COUNT(*), SUM(col2) FROM {} GROUP BY 1", k, table_name);
    for (GpuStrategy s :
         {GpuStrategy::ThreadPrivate, GpuStrategy::Block, GpuStrategy::Direct, GpuStrategy::Hash}) {
      const Measurement m = measure(engine, db, *table, sql, s, options.repetitions);
      if (!m.ran) continue;
      const double rate = rows / (m.kernel_ms / 1e3);
      rates.add(strategy_name(s), k, rate);
      if (options.progress) {
        options.progress(fmt::format("{:>7} {:>9} groups  {:8.3f} ms  {:7.1f} G rows/s",
                                     strategy_name(s), k, m.kernel_ms, rate / 1e9));
      }
    }
  }
  return rates;
}

}  // namespace tally
