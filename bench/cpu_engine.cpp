// The CPU engine's two paths on TPC-H lineitem: the row path (the reference evaluator) and
// the vector path, for Q1, Q6 and three GROUP BY shapes (few, ~100 k and many groups).
// Prints medians of wall and process CPU time, the vector path's rows/s (wall), the encoded
// bytes of the columns each query reads, the speedup (in CPU time), and whether both paths
// gave the same rows.
//   cpu_engine [--sf 1,10] [--reps 5] [--threads N] [--only-vector] [--query NAME-PREFIX]
#include "runtime/cpu/cpu_engine.h"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <ctime>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "bench/bench_util.h"
#include "compiler/bind/binder.h"
#include "compiler/parse/parser.h"
#include "runtime/session/database.h"
#include "tools/data/tpch_lineitem.h"

using namespace tally;

namespace {

struct Workload {
  const char* name;
  std::string sql;
};

std::vector<Workload> workloads() {
  const std::string dir =
      std::getenv("TALLY_SOURCE_DIR") ? std::getenv("TALLY_SOURCE_DIR") : TALLY_SOURCE_DIR;
  return {
      {"Q1", bench::read_file(dir + "/queries/tpch_q1.sql")},
      {"Q6", bench::read_file(dir + "/queries/tpch_q6.sql")},
      {"few groups (l_shipmode)",
       "SELECT l_shipmode, COUNT(*), SUM(l_quantity), AVG(l_extendedprice), MAX(l_discount) "
       "FROM lineitem GROUP BY l_shipmode"},
      {"~100k groups (l_partkey / 2 at SF 1)",
       "SELECT l_partkey / 2 AS k, COUNT(*), SUM(l_extendedprice) FROM lineitem GROUP BY k"},
      {"many groups (l_orderkey)",
       "SELECT l_orderkey, COUNT(*), SUM(l_quantity) FROM lineitem GROUP BY l_orderkey"},
  };
}

// Wall and process CPU milliseconds: on a machine shared with other work the CPU time of
// the query's threads is the steadier figure.
struct Times {
  double wall_ms = 0;
  double cpu_ms = 0;
};

double cpu_now_ms() {
  timespec t{};
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
  return static_cast<double>(t.tv_sec) * 1e3 + static_cast<double>(t.tv_nsec) / 1e6;
}

// Medians of `reps` runs (after one warm-up), and the last result.
Times time_runs(Database& db, const std::string& sql, const ExecOptions& options, int reps,
                Result& result) {
  std::vector<double> wall, cpu;
  for (int i = 0; i <= reps; ++i) {
    const auto start = std::chrono::steady_clock::now();
    const double cpu_start = cpu_now_ms();
    db.execute_script(sql, options, [&](const StatementOutcome& o) {
      if (o.result) result = *o.result;
    });
    const double cpu_ms = cpu_now_ms() - cpu_start;
    const double t =
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
    if (i == 0) continue;
    wall.push_back(t);
    cpu.push_back(cpu_ms);
  }
  return {bench::median(wall), bench::median(cpu)};
}

// The rows as sorted text: equal exactly when both paths gave the same rows.
std::vector<std::string> row_texts(const Result& r) {
  std::vector<std::string> rows;
  for (size_t i = 0; i < r.rows.size(); ++i) {
    std::string line;
    for (size_t c = 0; c < r.names.size(); ++c) line += r.cell_text(i, c) + "|";
    rows.push_back(std::move(line));
  }
  std::sort(rows.begin(), rows.end());
  return rows;
}

double scan_bytes(Database& db, const std::string& sql, const Table& table) {
  auto statements = parse_script(sql);
  BoundSelect q = bind_select(std::get<ast::SelectStmt>(statements[0].body), db, 0);
  double bytes = 0;
  for (const auto& sc : q.scan) {
    bytes +=
        static_cast<double>(table.columns[static_cast<size_t>(sc.table_column)]->encoded_bytes());
  }
  return bytes;
}

struct Settings {
  int reps = 5;
  unsigned threads = 0;
  bool only_vector = false;  // skip the row path (profiling the vector path)
  std::string query;         // run the workloads whose name starts with this
};

void bench_sf(double sf, const Settings& settings) {
  const int reps = settings.reps;
  const unsigned threads = settings.threads;
  TablePtr table = generate_lineitem(sf, 0);
  Database db;
  db.put_table(table);
  const double rows = static_cast<double>(table->rows());
  fmt::print("\nSF {} ({} rows), {} threads, median of {} runs\n", sf, table->rows(),
             threads ? threads : std::thread::hardware_concurrency(), reps);
  fmt::print("{:<38} {:>9} {:>9} {:>9} {:>9} {:>8} {:>8} {:>8} {:>8} {:>6}\n", "query", "row ms",
             "row cpu", "vec ms", "vec cpu", "speedup", "Mrows/s", "MB read", "groups", "same");
  for (const Workload& w : workloads()) {
    if (!std::string(w.name).starts_with(settings.query)) continue;
    ExecOptions options;
    options.device = DeviceChoice::Cpu;
    options.cpu_threads = threads;
    Result row_result, vector_result;
    options.cpu_path = CpuPath::Row;
    const Times row = settings.only_vector
                          ? Times{}
                          : time_runs(db, w.sql, options, std::max(1, reps / 2), row_result);
    options.cpu_path = CpuPath::Vector;
    const Times vec = time_runs(db, w.sql, options, reps, vector_result);
    const bool same = settings.only_vector || row_texts(row_result) == row_texts(vector_result);
    fmt::print(
        "{:<38} {:>9.1f} {:>9.1f} {:>9.1f} {:>9.1f} {:>7.2f}x {:>8.1f} {:>8.1f} {:>8} {:>6}\n",
        w.name, row.wall_ms, row.cpu_ms, vec.wall_ms, vec.cpu_ms, row.cpu_ms / vec.cpu_ms,
        rows / vec.wall_ms / 1e3, scan_bytes(db, w.sql, *table) / 1e6, vector_result.rows.size(),
        same ? "yes" : "NO");
  }
}

std::vector<double> parse_list(const std::string& text) {
  std::vector<double> out;
  std::stringstream s(text);
  for (std::string item; std::getline(s, item, ',');) out.push_back(std::stod(item));
  return out;
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<double> sfs = {1};
  Settings settings;
  for (int i = 1; i < argc; ++i) {
    const std::string flag = argv[i];
    const char* value = i + 1 < argc ? argv[i + 1] : "";
    if (flag == "--only-vector") settings.only_vector = true;
    if (flag == "--sf") sfs = parse_list(value);
    if (flag == "--reps") settings.reps = std::max(1, std::atoi(value));
    if (flag == "--threads") settings.threads = static_cast<unsigned>(std::atoi(value));
    if (flag == "--query") settings.query = value;
  }
  try {
    for (double sf : sfs) bench_sf(sf, settings);
  } catch (const Error& e) {
    fmt::print(stderr, "cpu_engine: {}\n", e.what());
    return 1;
  }
  return 0;
}
