// What a large GPU result costs on the host once its cells are downloaded (issue 16):
// the outputs of each group (evaluate_group_outputs, reading the raw cells as the GPU
// engine does), finish_result (HAVING, ORDER BY, LIMIT, hidden outputs), the CSV the
// command writes and the library's ResultSet::export_arrow of the same result, for
// `--groups` groups (15 M: TPC-H SF 10's l_orderkey). Beside them,
// the floor peer: the same integers spelled into CSV straight from the cell arrays by a
// hand loop on all cores, and the interpreted tier's finish of as many groups from their
// state cells (runtime/gpu/interpreted_finish.h: finals computed on the host). No GPU needed.
//   host_finish [--groups N] [--reps 3]
#include <fmt/format.h>

#include <atomic>
#include <charconv>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <ostream>
#include <streambuf>
#include <string>
#include <vector>

#include "api/engine_impl.h"
#include "bench/bench_util.h"
#include "cli/result_format.h"
#include "compiler/bind/binder.h"
#include "compiler/common/run_parallel.h"
#include "compiler/parse/parser.h"
#include "runtime/gpu/interpreted_finish.h"
#include "runtime/result/result_builder.h"
#include "runtime/session/database.h"
#include "runtime/storage/scan_stats.h"
#include "runtime/storage/table.h"

using namespace tally;

namespace {

// Counts what it is given and keeps none of it: CSV "to /dev/null" without the syscalls.
class NullBuffer : public std::streambuf {
 public:
  size_t bytes = 0;

 protected:
  std::streamsize xsputn(const char*, std::streamsize n) override {
    bytes += static_cast<size_t>(n);
    return n;
  }
  int overflow(int c) override {
    ++bytes;
    return c;
  }
};

// Downloaded cells as the GPU engine holds them: an int128 per key and per aggregate.
struct Cells {
  std::vector<int128> keys, counts;
};

Cells make_cells(size_t groups) {
  Cells c;
  c.keys.resize(groups);
  c.counts.resize(groups);
  for (size_t g = 0; g < groups; ++g) {
    c.keys[g] = static_cast<int128>(g * 4 + 1);  // TPC-H order keys are sparse
    c.counts[g] = static_cast<int128>(1 + g % 7);
  }
  return c;
}

BoundSelect bind(Database& db, const std::string& sql) {
  auto statements = parse_script(sql);
  return bind_select(std::get<ast::SelectStmt>(statements.at(0).body), db,
                     statements.at(0).parameter_count);
}

double ms_between(std::chrono::steady_clock::time_point a,
                  std::chrono::steady_clock::time_point b) {
  return std::chrono::duration<double, std::milli>(b - a).count();
}

struct Phases {
  double outputs = 0, finish = 0, csv = 0, arrow = 0;
  size_t rows = 0, bytes = 0;
};

// ResultSet::export_arrow of `result`, released again (the release is not timed).
double arrow_export_ms(Result result) {
  auto impl = std::make_shared<ResultSet::Impl>();
  impl->result = std::move(result);
  const ResultSet results(std::move(impl));
  ArrowSchema schema;
  ArrowArray array;
  auto t0 = std::chrono::steady_clock::now();
  results.export_arrow(&schema, &array);
  const double ms = ms_between(t0, std::chrono::steady_clock::now());
  array.release(&array);
  schema.release(&schema);
  return ms;
}

Phases run_once(const BoundSelect& query, const Cells& cells) {
  Phases p;
  auto strings = std::make_shared<StringHeap>();
  const std::vector<Value> parameters;
  auto t0 = std::chrono::steady_clock::now();
  auto read = [&](size_t g, Value* keys, Value* aggregates) {
    keys[0] = Value::from_int(static_cast<int64_t>(cells.keys[g]));
    aggregates[0] = Value::from_int(static_cast<int64_t>(cells.counts[g]));
  };
  auto rows = evaluate_group_outputs(query, cells.keys.size(), read, parameters, strings.get());
  auto t1 = std::chrono::steady_clock::now();
  Result result = finish_result(query, std::move(rows), parameters, strings);
  auto t2 = std::chrono::steady_clock::now();
  NullBuffer sink;
  std::ostream out(&sink);
  write_result(out, result, OutputFormat::Csv);
  auto t3 = std::chrono::steady_clock::now();
  p.outputs = ms_between(t0, t1);
  p.finish = ms_between(t1, t2);
  p.csv = ms_between(t2, t3);
  p.rows = result.rows.size();
  p.bytes = sink.bytes;
  p.arrow = arrow_export_ms(std::move(result));
  return p;
}

// The floor: both integer columns spelled as CSV from the cell arrays, chunks on all cores,
// each into its thread's reused buffer (what a writer must at least do; nothing is kept).
double hand_csv_ms(const Cells& cells, size_t* bytes) {
  auto t0 = std::chrono::steady_clock::now();
  constexpr size_t kChunk = 1 << 16;
  const size_t n = cells.keys.size();
  std::atomic<size_t> spelled{0};
  run_parallel((n + kChunk - 1) / kChunk, [&](size_t c) {
    thread_local std::string out;
    out.clear();
    char digits[24];
    for (size_t g = c * kChunk; g < std::min(n, (c + 1) * kChunk); ++g) {
      out.append(digits,
                 std::to_chars(digits, digits + 24, static_cast<int64_t>(cells.keys[g])).ptr);
      out += ',';
      out.append(digits,
                 std::to_chars(digits, digits + 24, static_cast<int64_t>(cells.counts[g])).ptr);
      out += '\n';
    }
    spelled += out.size();
  });
  *bytes = spelled + 8;  // and the header, "k,count\n", as write_result writes it
  return ms_between(t0, std::chrono::steady_clock::now());
}

// The interpreter's finish of `SELECT k, COUNT(*), SUM(v) ... GROUP BY k` over the same keys:
// group numbers and their state cells, as a device run downloads them (no CSV).
double interpreted_finish_ms(Database& db, const Cells& cells) {
  const BoundSelect query = bind(db, "SELECT k, COUNT(*), SUM(v) FROM t GROUP BY k");
  const Table& table = *db.table("t");
  const size_t groups = cells.keys.size();
  RowProgram p;
  p.layout = layout_states(query, scan_stats(query, table), groups);
  p.keys = {tally_interp::Key{0, 0, 0, groups * 4 + 2}};
  p.groups = groups * 4 + 2;
  p.key_domains = {-1};
  p.aggregate_domains.assign(query.aggregates.size(), -1);
  std::vector<uint64_t> numbers(groups);
  std::vector<int128> states;
  for (const StateField& f : p.layout.fields) {
    const bool count = f.kind == FieldKind::Count;
    p.fields.push_back({count ? tally_interp::kFieldCount : tally_interp::kFieldSum, -1});
  }
  for (size_t g = 0; g < groups; ++g) {
    numbers[g] = static_cast<uint64_t>(cells.keys[g]);
    for (const tally_interp::Field& f : p.fields) {
      states.push_back(f.op == tally_interp::kFieldCount ? cells.counts[g]
                                                         : static_cast<int128>(g * 3));
    }
  }
  auto t0 = std::chrono::steady_clock::now();
  const Result result = finish_interpreted(p, query, table, numbers, std::move(states), {},
                                           std::make_shared<StringHeap>(), {});
  const double ms = ms_between(t0, std::chrono::steady_clock::now());
  if (result.rows.size() != groups) std::abort();
  return ms;
}

}  // namespace

int main(int argc, char** argv) {
  size_t groups = 15'000'000;
  int reps = 3;
  for (int i = 1; i + 1 < argc; i += 2) {
    if (std::strcmp(argv[i], "--groups") == 0) groups = std::strtoull(argv[i + 1], nullptr, 10);
    if (std::strcmp(argv[i], "--reps") == 0) reps = std::atoi(argv[i + 1]);
  }
  Database db;
  ExecOptions cpu;
  cpu.device = DeviceChoice::Cpu;
  db.execute_script("CREATE TABLE t (k BIGINT, v BIGINT);", cpu, [](const StatementOutcome&) {});
  const Cells cells = make_cells(groups);
  const std::pair<const char*, const char*> shapes[] = {
      {"key, count", "SELECT k, COUNT(*) FROM t GROUP BY k"},
      {"key, count, HAVING", "SELECT k, COUNT(*) FROM t GROUP BY k HAVING COUNT(*) > 1"},
      {"computed output", "SELECT k * 2 AS k2, COUNT(*) FROM t GROUP BY k"},
      {"ORDER BY key", "SELECT k, COUNT(*) FROM t GROUP BY k ORDER BY 1 DESC"},
  };
  fmt::print("host finish of {} groups, {} threads, median of {} (ms)\n", groups, worker_threads(),
             reps);
  fmt::print(
      "| shape | outputs | finish_result | CSV | total | rows | CSV MB | / hand CSV | Arrow "
      "export |\n");
  fmt::print("|---|---|---|---|---|---|---|---|---|\n");
  std::vector<double> hand;
  size_t hand_bytes = 0;
  for (int r = 0; r < reps; ++r) hand.push_back(hand_csv_ms(cells, &hand_bytes));
  const double hand_ms = bench::median(hand);
  for (const auto& [name, sql] : shapes) {
    const BoundSelect query = bind(db, sql);
    std::vector<double> o, f, c, t, a;
    Phases last;
    for (int r = 0; r < reps; ++r) {
      last = run_once(query, cells);
      o.push_back(last.outputs);
      f.push_back(last.finish);
      c.push_back(last.csv);
      a.push_back(last.arrow);
      t.push_back(last.outputs + last.finish + last.csv);
    }
    const double total = bench::median(t);
    fmt::print("| {} | {:.1f} | {:.1f} | {:.1f} | {:.1f} | {} | {:.1f} | {:.2f}x | {:.1f} |\n",
               name, bench::median(o), bench::median(f), bench::median(c), total, last.rows,
               last.bytes / 1e6, total / hand_ms, bench::median(a));
  }
  fmt::print(
      "| hand CSV from the cells (floor peer) | | | {:.1f} | {:.1f} | {} | {:.1f} | 1.00x | |\n",
      hand_ms, hand_ms, groups, hand_bytes / 1e6);
  std::vector<double> interpreted;
  for (int r = 0; r < reps; ++r) interpreted.push_back(interpreted_finish_ms(db, cells));
  fmt::print(
      "| interpreted tier: key, count, sum from state cells (outputs and finish) | {:.1f} | | "
      "| | {} | | | |\n",
      bench::median(interpreted), groups);
  return 0;
}
