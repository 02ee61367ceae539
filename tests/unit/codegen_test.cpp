// CI half of the GPU path: every query in queries/ (and a few edge shapes) generates CUDA
// that NVRTC compiles for sm_90 under every strategy that applies — no GPU needed.
#include <doctest/doctest.h>
#include <fmt/format.h>

#include "compiler/common/error.h"
#include "runtime/compile/nvrtc.h"
#include "runtime/session/database.h"
#include "tests/unit/support/result_check.h"
#include "tools/data/paper_tables.h"
#include "tools/data/tpch_lineitem.h"

namespace tally {
namespace {

Database& compile_db() {
  static Database* db = [] {
    auto* d = new Database();
    d->put_table(generate_lineitem(0.01, 3));
    d->put_table(generate_orders_table(5000, 100, 3));
    d->put_table(generate_atable(5000, 1u << 20, 0, 3));
    d->put_table(generate_nulls_table(5000, 0.2, 3));
    return d;
  }();
  return *db;
}

// Compiles every SELECT of the script; returns how many compiled (0 when unsupported).
int compile(const std::string& sql, const std::string& strategy,
            const std::vector<std::string>& params = {}) {
  ExecOptions options;
  options.compile_only = true;
  options.strategy = strategy;
  options.parameters = params;
  options.emit_cuda = true;
  int compiled = 0;
  try {
    compile_db().execute_script(sql, options, [&](const StatementOutcome& o) {
      CHECK(o.tag.rfind("COMPILE sm_90", 0) == 0);
      CHECK(o.cuda.find("tally_scan") != std::string::npos);
      ++compiled;
    });
  } catch (const Error& e) {
    INFO(e.what());
    CHECK(e.kind() == ErrorKind::Unsupported);
  }
  return compiled;
}

// The CUDA of the last statement of `sql`, compiled with NVRTC under `strategy`.
std::string emitted_cuda(const std::string& sql, const std::string& strategy = "auto") {
  ExecOptions options;
  options.compile_only = true;
  options.emit_cuda = true;
  options.strategy = strategy;
  std::string cuda;
  compile_db().execute_script(sql, options, [&](const StatementOutcome& o) { cuda = o.cuda; });
  return cuda;
}

}  // namespace

TEST_CASE("codegen: every GPU-supported query in queries/ compiles with NVRTC for sm_90") {
  if (!cuda::nvrtc_available()) {
    MESSAGE("libnvrtc not found: skipped");
    return;
  }
  struct Case {
    const char* name;
    std::vector<std::string> params;
    bool gpu_supported;
  };
  std::vector<Case> cases = {
      {"tpch_q1", {}, true},
      {"tpch_q6", {}, true},
      {"query_a", {}, true},
      {"query_b", {"7"}, true},
      {"returnflag_count", {}, true},
      {"shipmode_stats", {}, true},
      {"yearly_revenue", {}, true},
      {"quantity_buckets", {}, true},
      {"distinct_suppliers", {}, true},
      {"like_filter", {}, true},
      {"in_list", {}, true},
      {"top_orders", {}, true},
      {"select_distinct", {}, true},
      {"global_aggregates", {}, true},
      {"monthly_window", {"1995-03-15", "1995-03-15"}, true},
      {"expressions", {}, true},
  };
  for (const auto& c : cases) {
    INFO(c.name);
    std::string sql = test::query_file(c.name);
    CHECK((compile(sql, "auto", c.params) == 1) == c.gpu_supported);
    if (!c.gpu_supported) continue;
    int strategies = 0;
    for (const char* s : {"thread", "block", "direct", "hash"})
      strategies += compile(sql, s, c.params);
    CHECK(strategies >= 1);
  }
}

TEST_CASE("codegen: NULL-heavy inputs - computed keys and errors paths compile") {
  if (!cuda::nvrtc_available()) return;
  CHECK(compile("SELECT c_varchar, c_boolean, COUNT(c_integer), SUM(c_wide), AVG(c_decimal), "
                "MIN(c_date), MAX(c_varchar), VAR_SAMP(c_double) FROM nulls "
                "GROUP BY c_varchar, c_boolean",
                "auto") == 1);
  CHECK(compile("SELECT c_integer % 3, COUNT(*) FROM nulls GROUP BY 1", "hash") == 1);
  CHECK(compile("SELECT c_double, COUNT(*) FROM nulls GROUP BY c_double", "auto") == 1);
  CHECK(compile("SELECT COUNT(*) FROM nulls WHERE c_varchar LIKE '%a%' AND "
                "CAST(c_decimal AS INTEGER) / c_smallint > 1",
                "auto") == 1);
  // DISTINCT aggregates of every argument kind, beside plain ones over the same argument.
  CHECK(compile("SELECT c_boolean, COUNT(DISTINCT c_integer), SUM(DISTINCT c_decimal), "
                "AVG(DISTINCT c_wide), COUNT(DISTINCT c_varchar), COUNT(DISTINCT c_double), "
                "SUM(c_decimal), COUNT(c_integer) FROM nulls GROUP BY c_boolean",
                "auto") == 1);
  CHECK(compile("SELECT c_integer % 5, COUNT(DISTINCT c_date) FROM nulls GROUP BY 1", "hash") == 1);
  // A computed string enters the set as its id in its string domain (|| of one column and
  // a constant is a host-computed leaf: compiler/plan/string_domain.h).
  CHECK(compile("SELECT COUNT(DISTINCT c_varchar || 'x') FROM nulls", "auto") == 1);
  // An exact variance whose squares pass 128 bits keeps its values' halves' products.
  for (const char* s : {"auto", "thread", "block", "direct", "hash"}) {
    INFO(s);
    CHECK(compile("SELECT c_boolean, VAR_SAMP(c_wide), STDDEV_SAMP(c_wide * 10) FROM nulls "
                  "GROUP BY 1",
                  s) == 1);
    // So does ARG_MIN/ARG_MAX of a wide DECIMAL: its key and value in two passes.
    CHECK(compile("SELECT c_boolean, ARG_MIN(c_wide, c_double), ARG_MAX(c_varchar, c_wide) "
                  "FROM nulls GROUP BY 1",
                  s) == 1);
  }
}

}  // namespace tally

namespace tally {

TEST_CASE("codegen: DISTINCT aggregates over an empty table still compile (the set is sized)") {
  if (!cuda::nvrtc_available()) return;
  Database db;
  ExecOptions cpu;
  cpu.device = DeviceChoice::Cpu;
  db.execute_script("CREATE TABLE e (i INTEGER, t VARCHAR(5))", cpu, [](const auto&) {});
  ExecOptions options;
  options.compile_only = true;
  int compiled = 0;
  db.execute_script("SELECT COUNT(*), COUNT(DISTINCT i), SUM(DISTINCT i), COUNT(t) FROM e", options,
                    [&](const StatementOutcome& o) {
                      CHECK(o.tag.rfind("COMPILE sm_90", 0) == 0);
                      ++compiled;
                    });
  CHECK(compiled == 1);
}

TEST_CASE(
    "codegen: TPC-H Q1's scan loads a chunk's packed words together and multiplies in 32 bits") {
  // What keeps the Q1 scan fast (bench/RESULTS.md): 32-bit lane-transposed decoders whose
  // words for a chunk of rows load together, a chunk ahead, a 32-bit block walk, one shared buffer
  // for the per-thread tables, and unsigned 32 x 32 -> 64-bit products where the statistics prove
  // the factors fit.
  if (!cuda::nvrtc_available()) return;
  ExecOptions options;
  options.compile_only = true;
  options.emit_cuda = true;
  std::string cuda;
  compile_db().execute_script(test::query_file("tpch_q1"), options,
                              [&](const StatementOutcome& o) { cuda = o.cuda; });
  // Two buffers of 8-row chunks: the next chunk's words load while this one is worked on.
  CHECK(cuda.find("LaneChunk<24u, 8u> l_extendedprice_chunk_a;") != std::string::npos);
  CHECK(cuda.find("l_extendedprice_chunk_b.load(l_extendedprice_words + (u32)(block) * 768u, "
                  "chunk + 1);") != std::string::npos);
  CHECK(cuda.find("l_extendedprice_chunk_a.load(l_extendedprice_words + (u32)(block + warps) * "
                  "768u, 0);") != std::string::npos);
  // Whole blocks walk without a per-row check that the row exists; the partial last block
  // is done after the walk, row by row, with the check.
  const size_t walk = cuda.find("for (; (block + 1) * 1024 <= walk_rows; block += warps)");
  const size_t last = cuda.find("if (block * 1024 < walk_rows) {");
  CHECK(walk != std::string::npos);
  CHECK(last != std::string::npos);
  CHECK(walk < last);
  CHECK(cuda.find("index >= in_block") > last);
  CHECK(cuda.find("lane_field32<24u>(l_extendedprice_words", last) != std::string::npos);
  // Decoded columns wait in 32-bit registers, widened where they are used.
  CHECK(cuda.find("i32 l_extendedprice_held[2];") != std::string::npos);
  CHECK(cuda.find("const i64 l_extendedprice = l_extendedprice_held[half];") != std::string::npos);
  CHECK(cuda.find("__shared__ __align__(16) u8 thread_cells[") != std::string::npos);
  CHECK(cuda.find("(i64)((u64)(u32)l_extendedprice * (u64)(u32)") != std::string::npos);
  CHECK(cuda.find("KernelArgs<") != std::string::npos);
  // No Init kernel: the Scan's first block sets the states, and each block waits for them
  // before it merges; the Finalizer stays a kernel.
  CHECK(cuda.find("tally_init(") == std::string::npos);
  CHECK(cuda.find("tally_finalize(") != std::string::npos);
  const size_t first = cuda.find("if (first_block_to_start(sync))");
  const size_t await = cuda.find("await_init(sync);");
  const size_t merge = cuda.find("__syncthreads();\n  if (threadIdx.x / 32 == 0u)");
  CHECK(first != std::string::npos);
  CHECK(first < await);
  CHECK(await < merge);
  CHECK(merge != std::string::npos);
  // The Finalizer is the Scan's dependent launch: the Scan lets it be scheduled once its
  // rows are done, and the Finalizer waits for the whole Scan before its first read.
  const size_t allow = cuda.find("allow_dependent_launch();");
  const size_t finalizer = cuda.find("tally_finalize(");
  CHECK(allow != std::string::npos);
  CHECK(allow < await);
  const size_t wait = cuda.find("wait_for_prior_grid();", finalizer);
  CHECK(wait != std::string::npos);
  CHECK(wait < cuda.find("for (u64 first", finalizer));
}

TEST_CASE("codegen: the Finalizer claims a warp's output rows once for several slots a lane") {
  // One atomic a warp and slot on the row counter serialized in L2 (bench/RESULTS.md, session
  // 40): a table of 16.8 M slots has each lane look at 2 slots before its warp claims their rows.
  if (!cuda::nvrtc_available()) return;
  ExecOptions options;
  options.compile_only = true;
  options.emit_cuda = true;
  options.strategy = "direct";
  std::string cuda;
  compile_db().execute_script(
      "SELECT col1 * 16 + col2 % 16 AS g, COUNT(*), SUM(col2) FROM atable GROUP BY 1", options,
      [&](const StatementOutcome& o) { cuda = o.cuda; });
  const size_t finalizer = cuda.find("tally_finalize(");
  REQUIRE(finalizer != std::string::npos);
  const std::string body = cuda.substr(finalizer);
  CHECK(body.find("for (u32 j = 0; j < 2; ++j)") != std::string::npos);
  CHECK(body.find("WarpOutputRows rows = WarpOutputRows::claim(kept, out_count);") !=
        std::string::npos);
  CHECK(body.find("const u64 group = rows.take(kept, j);") != std::string::npos);
  CHECK(body.find("atomicAdd(out_count") == std::string::npos);
}

TEST_CASE("codegen: an operation on parameters is read once and not computed in every row") {
  // The host evaluates it as a one-entry lookup; the kernel copies the entry before its rows
  // and a row that evaluates the operation checks only the entry's failure flag.
  const std::string cuda = emitted_cuda(
      "SELECT COUNT(*) FROM lineitem WHERE l_shipdate < CAST(? AS DATE) + INTERVAL '6' MONTH "
      "AND l_quantity < CAST(? AS INTEGER) * 2");
  INFO(cuda);
  const size_t scan = cuda.find("tally_scan(");
  REQUIRE(scan != std::string::npos);
  CHECK(cuda.find("add_months(", scan) == std::string::npos);
  const size_t copy = cuda.find("host_value_at0 = ", scan);
  const size_t check = cuda.find("if (host_value_at0_failed) raise_status", scan);
  const size_t rows = cuda.find("walk_rows", scan);
  CHECK(copy < rows);
  CHECK(check > rows);
  CHECK(check != std::string::npos);
  CHECK(cuda.find("host_value1_at0 = ", scan) < rows);  // CAST(? AS INTEGER) * 2
}

TEST_CASE("codegen: a Scan with a DISTINCT set reads its rows one at a time") {
  // Unrolled, a DISTINCT set's probe loops made the Scan 14-32x slower (H200, SF 10:
  // bench/RESULTS.md, "DISTINCT aggregates walk row by row"); the same tables without the
  // set (a DOUBLE's DISTINCT keeps one, l_suppkey's takes a bitmap) still unroll.
  if (!cuda::nvrtc_available()) return;
  const std::string walk = "for (; (block + 1) * 1024 <= walk_rows; block += warps)";
  for (const char* aggregates : {"COUNT(DISTINCT CAST(l_tax AS DOUBLE)), COUNT(*)",
                                 "COUNT(DISTINCT l_suppkey), COUNT(*)", "COUNT(*)"}) {
    const bool distinct = std::string(aggregates).find("DOUBLE") != std::string::npos;
    for (const char* shape :
         {"SELECT l_linestatus, {} FROM lineitem GROUP BY 1",
          "SELECT l_returnflag, {} FROM lineitem GROUP BY 1", "SELECT {} FROM lineitem"}) {
      const std::string sql = fmt::format(fmt::runtime(shape), aggregates);
      INFO(sql);
      const std::string cuda = emitted_cuda(sql);
      REQUIRE(cuda.find("tally_scan") != std::string::npos);
      CHECK((cuda.find(walk) == std::string::npos) == distinct);
    }
  }
}

TEST_CASE("codegen: the second pass of DOUBLE variances merges on chip where the first does") {
  // With global atomics on 3 groups' deviation sums, the second pass took 98 ms at SF 10 on
  // an H200 (bench/RESULTS.md, "the variance's second pass on chip").
  if (!cuda::nvrtc_available()) return;
  struct Case {
    const char* key;
    const char* strategy;
    const char* table;  // the second pass's table; empty: global atomics
  };
  for (const Case& c : {Case{"l_returnflag", "auto", "u8 thread_cells["},
                        Case{"l_orderkey % 20", "block", "u8 block_cells[320]"},
                        Case{"l_orderkey % 4000", "block", ""}}) {
    const std::string sql = fmt::format(
        "SELECT {}, VAR_SAMP(CAST(l_extendedprice AS DOUBLE)), COUNT(*) FROM lineitem GROUP BY 1",
        c.key);
    INFO(sql, " under ", std::string(c.strategy));
    const std::string cuda = emitted_cuda(sql, c.strategy);
    const size_t m2 = cuda.find(kernel_name(KernelId::ScanM2));
    REQUIRE(m2 != std::string::npos);
    const std::string pass = cuda.substr(m2, cuda.find(kernel_name(KernelId::Finalize), m2) - m2);
    // The second pass's atomics on the global states come after its rows, in the flush.
    const size_t flush = pass.rfind("__syncthreads();");
    size_t global_atomic = pass.find("atomic_add(&");
    while (global_atomic != std::string::npos && pass[global_atomic - 1] == '_') {
      global_atomic = pass.find("atomic_add(&", global_atomic + 1);  // shared_atomic_add
    }
    REQUIRE(global_atomic != std::string::npos);
    if (*c.table == '\0') {
      CHECK(pass.find("__shared__") == std::string::npos);
      CHECK((flush == std::string::npos || global_atomic < flush));
    } else {
      CHECK(pass.find(c.table) != std::string::npos);
      CHECK(flush != std::string::npos);
      CHECK(global_atomic > flush);
    }
  }
}

TEST_CASE("codegen: a block table's loops take names no column or alias holds") {
  if (!cuda::nvrtc_available()) return;
  // The SUM's state is named after its alias: the table's slot loop must not shadow it.
  for (const char* alias : {"s", "table_slot", "block_cells"}) {
    INFO(alias);
    CHECK(compile(fmt::format("SELECT l_partkey % 1000 AS g, COUNT(*) AS n, SUM(l_quantity) AS {} "
                              "FROM lineitem GROUP BY 1",
                              alias),
                  "block") == 1);
  }
}

}  // namespace tally

namespace tally {
namespace {

// `aggregates` grouped by a column under every strategy (at least three take it), by a
// computed key, and over the whole table.
void compile_every_strategy(const std::string& aggregates) {
  const std::string grouped = "SELECT c_boolean, " + aggregates + " FROM nulls GROUP BY c_boolean";
  CHECK(compile(grouped, "auto") == 1);
  int strategies = 0;
  for (const char* s : {"thread", "block", "direct", "hash"}) strategies += compile(grouped, s);
  CHECK(strategies >= 3);
  const std::string computed = "SELECT c_integer % 7, " + aggregates + " FROM nulls GROUP BY 1";
  for (const char* s : {"auto", "hash"}) CHECK(compile(computed, s) == 1);
  CHECK(compile("SELECT " + aggregates + " FROM nulls", "auto") == 1);
}

}  // namespace

// The aggregates the GPU runs beside SUM and MIN (COUNT_IF, BIT_AND/OR/XOR, PRODUCT,
// ANY_VALUE/FIRST, SUM of BIGINT as DECIMAL(38,0)) under every strategy: their merges in
// registers, shared thread tables, block tables, block caches and global atomics compile.
TEST_CASE("codegen: the aggregate library compiles under every strategy - NULLs included") {
  if (!cuda::nvrtc_available()) return;
  const std::string aggregates =
      "COUNT_IF(c_boolean), BIT_AND(c_integer), BIT_OR(c_smallint), BIT_XOR(c_bigint), "
      "PRODUCT(c_double), PRODUCT(c_decimal), ANY_VALUE(c_varchar), FIRST(c_date), "
      "SUM(c_bigint), BIT_XOR(DISTINCT c_integer), COUNT(*)";
  compile_every_strategy(aggregates);
  // Value lists have no device state (compiler/functions/value_lists.h), nor a sketch of
  // strings (the device hashes no bytes).
  for (const char* holistic :
       {"MEDIAN(c_integer)", "QUANTILE_DISC(c_date, 0.3)", "MODE(c_varchar)",
        "PERCENTILE_CONT(0.5) WITHIN GROUP (ORDER BY c_double)", "STRING_AGG(c_varchar, ',')",
        "FIRST(c_integer ORDER BY c_date)", "APPROX_COUNT_DISTINCT(c_varchar)"}) {
    INFO(holistic);
    CHECK(compile(fmt::format("SELECT {} FROM nulls", holistic), "auto") == 0);
  }
}

// APPROX_COUNT_DISTINCT's sketches live in global memory only: Direct and Hash compile them
// for every hashed type, thread and block tables decline.
TEST_CASE("codegen: APPROX_COUNT_DISTINCT sketches compile in global tables") {
  if (!cuda::nvrtc_available()) return;
  const std::string aggregates =
      "APPROX_COUNT_DISTINCT(c_bigint), APPROX_COUNT_DISTINCT(c_double), "
      "APPROX_COUNT_DISTINCT(c_wide), APPROX_COUNT_DISTINCT(c_date), "
      "APPROX_COUNT_DISTINCT(c_boolean), APPROX_COUNT_DISTINCT(c_real), COUNT(*)";
  const std::string grouped = "SELECT c_boolean, " + aggregates + " FROM nulls GROUP BY 1";
  for (const char* s : {"auto", "direct", "hash"}) CHECK(compile(grouped, s) == 1);
  for (const char* s : {"thread", "block"}) CHECK(compile(grouped, s) == 0);
  CHECK(compile("SELECT " + aggregates + " FROM nulls", "auto") == 1);
}

// The statistical aggregates (COVAR, CORR, REGR_* of two arguments, SKEWNESS, KURTOSIS): a
// first pass of sums and a second of deviations, under every strategy and key shape.
TEST_CASE("codegen: the statistical aggregates compile under every strategy - NULLs included") {
  if (!cuda::nvrtc_available()) return;
  const std::string aggregates =
      "COVAR_POP(c_double, c_integer), COVAR_SAMP(c_real, c_smallint), CORR(c_double, "
      "c_decimal), REGR_SLOPE(c_double, c_smallint), REGR_INTERCEPT(c_double, c_smallint), "
      "REGR_COUNT(c_bigint, c_smallint), REGR_R2(c_real, c_integer), REGR_AVGX(c_double, "
      "c_wide), REGR_AVGY(c_double, c_wide), REGR_SXX(c_double, c_integer * 2), "
      "REGR_SYY(c_double, c_integer * 2), REGR_SXY(c_double, c_integer * 2), "
      "SKEWNESS(c_double), KURTOSIS(c_integer), VAR_SAMP(c_double), COUNT(*)";
  compile_every_strategy(aggregates);
  CHECK(compile("SELECT SKEWNESS(l_quantity), CORR(l_extendedprice, l_discount) FROM lineitem "
                "WHERE l_quantity > 10",
                "auto") == 1);
}

// ARG_MIN / ARG_MAX's packed (key, value) word (templates/tally_arg_pair.cuh) of every type
// the GPU holds, dictionary strings on either side, FILTER beside it.
TEST_CASE("codegen: ARG_MIN and ARG_MAX compile under every strategy - NULLs included") {
  if (!cuda::nvrtc_available()) return;
  compile_every_strategy(
      "ARG_MIN(c_varchar, c_integer), MAX_BY(c_double, c_date), ARG_MIN(c_decimal, c_real), "
      "ARG_MAX(c_boolean, c_varchar), MIN_BY(c_smallint, c_bigint * 2), "
      "ARG_MAX(c_date, c_decimal) FILTER (WHERE c_boolean), COUNT(*)");
}

TEST_CASE("codegen: an aggregate state the GPU cannot hold is declined with its name") {
  if (!cuda::nvrtc_available()) return;
  Database& db = compile_db();
  ExecOptions options;
  options.compile_only = true;
  try {
    db.execute_script("SELECT MAX_BY(c_varchar, CAST(c_bigint AS HUGEINT)) FROM nulls", options,
                      [](const StatementOutcome&) {});
    FAIL("MAX_BY compiled for the GPU");
  } catch (const Error& e) {
    CHECK(e.kind() == ErrorKind::Unsupported);
    CHECK(std::string(e.what()).find("ARG_MAX") != std::string::npos);
  }
}

// COUNT(DISTINCT x) over at most 64 values keeps them as one word's bits (CountDistinctBits):
// its OR merges in registers, shared thread tables, block tables, block caches and global
// atomics compile, beside a DISTINCT that keeps the set.
TEST_CASE("codegen: COUNT(DISTINCT) bits compile under every strategy - NULLs included") {
  if (!cuda::nvrtc_available()) return;
  compile_every_strategy(
      "COUNT(DISTINCT c_boolean), COUNT(DISTINCT c_smallint % 40), COUNT(DISTINCT c_integer)");
  const std::string cuda =
      emitted_cuda("SELECT COUNT(DISTINCT l_shipmode), COUNT(*) FROM lineitem", "auto");
  CHECK(cuda.find("__popcll(") != std::string::npos);
  CHECK(cuda.find("distinct.insert") == std::string::npos);
}

}  // namespace tally
