// The scalar functions in generated CUDA, without a GPU: numeric, date and TIMESTAMP functions
// become device code (compiler/codegen/cuda_expr_functions.cpp), string functions of one dictionary
// column become host-computed lookups, and the shapes the GPU cannot run are refused with a
// reason naming the expression (the --device auto fallback reports it). Every accepted
// shape compiles with NVRTC for sm_90 without a warning.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "compiler/common/error.h"
#include "runtime/compile/gpu_compile.h"
#include "runtime/compile/nvrtc.h"
#include "runtime/session/database.h"
#include "runtime/storage/scan_stats.h"
#include "tests/unit/support/text_check.h"
#include "tools/data/paper_tables.h"

namespace tally {
namespace {

Database& functions_db() {
  static Database* db = [] {
    auto* d = new Database();
    d->put_table(generate_nulls_table(2000, 0.2, 5));
    return d;
  }();
  return *db;
}

struct Generated {
  std::string source;
  std::vector<DictLookup> lookups;
  std::string refused;  // the Unsupported message, when the GPU path refuses the query
};

Generated generate(const std::string& sql, GpuStrategy strategy = GpuStrategy::Auto) {
  auto statement = functions_db().prepare(sql);
  const BoundSelect& q = statement->query;
  TablePtr t = functions_db().table("nulls");
  std::vector<ColumnStats> stats = scan_stats(q, *t);
  GpuCompileOptions options;
  options.strategy = strategy;
  Generated g;
  try {
    GpuPlan plan = plan_for(q, stats, t->rows(), options);
    GpuProgram program = generate_cuda(q, plan, stats);
    g.source = program.source;
    g.lookups = program.lookups;
    if (cuda::nvrtc_available()) {
      GpuCompilation c = compile_plan(q, stats, plan, "sm_90");
      CHECK_MESSAGE(c.binary->log.empty(), c.binary->log);
    }
  } catch (const Error& e) {
    REQUIRE_MESSAGE(e.kind() == ErrorKind::Unsupported, e.what());
    g.refused = e.what();
  }
  return g;
}

}  // namespace

TEST_CASE("scalar functions codegen: numeric functions are device code") {
  if (!cuda::nvrtc_available()) MESSAGE("libnvrtc not found: generated code not compiled");
  Generated g = generate(
      "SELECT c_boolean, SUM(sqrt(c_double)), SUM(ln(c_real)), SUM(log10(c_real)), "
      "SUM(log(2, c_real)), SUM(exp(c_double)), SUM(power(c_double, 3)), "
      "SUM(floor(c_double)), SUM(ceil(c_decimal)), SUM(trunc(c_decimal, 1)), "
      "SUM(trunc(c_integer, -2)), SUM(sign(c_decimal)), MAX(greatest(c_smallint, c_decimal, 0)), "
      "MIN(least(c_double, 1)) FROM nulls GROUP BY c_boolean");
  REQUIRE(g.refused == "");
  for (const char* part : {"sqrt(", "log(", "log10(", "exp(", "pow(", "floor(",
                           "kStatusSqrtNegative", "kStatusLogZero", "kStatusComplexPower"}) {
    INFO(part);
    CHECK(contains(g.source, part));
  }
  CHECK(g.lookups.empty());  // nothing here reads a string
}

TEST_CASE("scalar functions codegen: date functions as GROUP BY keys on every strategy") {
  const char* queries[] = {
      "SELECT date_trunc('month', c_date), COUNT(*), SUM(c_integer) FROM nulls GROUP BY 1",
      "SELECT date_trunc('week', c_date), EXTRACT(DOW FROM c_date), date_part('doy', c_date), "
      "COUNT(*) FROM nulls GROUP BY 1, 2, 3",
      "SELECT EXTRACT(WEEK FROM c_date), EXTRACT(ISOYEAR FROM c_date), EXTRACT(QUARTER FROM "
      "c_date), COUNT(*) FROM nulls WHERE date_trunc('year', c_date) = DATE '1995-01-01' "
      "GROUP BY 1, 2, 3",
      "SELECT floor(c_decimal), COUNT(*) FROM nulls GROUP BY floor(c_decimal)",
  };
  for (const char* sql : queries) {
    INFO(sql);
    int compiled = 0;
    for (GpuStrategy s :
         {GpuStrategy::Auto, GpuStrategy::ThreadPrivate, GpuStrategy::Direct, GpuStrategy::Hash}) {
      Generated g = generate(sql, s);
      if (s == GpuStrategy::Auto) REQUIRE(g.refused == "");
      compiled += g.refused.empty() ? 1 : 0;
    }
    CHECK(compiled >= 2);
  }
  // A date_trunc key's digit is its period's index, from the date itself; the Finalizer turns
  // the index back into the period's first day. In a filter date_trunc is computed.
  const std::string month_keys = generate(queries[0]).source;
  CHECK(contains(month_keys, "tally_dates::period_index32((i64)c_date, 1)"));
  CHECK(contains(month_keys, "tally_dates::period_first_day("));
  CHECK_FALSE(contains(month_keys, "tally_dates::date_trunc_days("));
  CHECK(contains(generate(queries[2]).source, "tally_dates::date_trunc_days("));
  CHECK(contains(generate(queries[1]).source, "tally_dates::date_field("));
}

TEST_CASE("scalar functions codegen: TIMESTAMP parts - truncation and casts are device code") {
  Generated g = generate(
      "SELECT date_trunc('hour', CAST(c_date AS TIMESTAMP)), EXTRACT(MINUTE FROM "
      "CAST(c_date AS TIMESTAMP)), MIN(CAST(c_date AS TIMESTAMP)), COUNT(*) FROM nulls WHERE "
      "CAST(c_date AS TIMESTAMP) >= TIMESTAMP '1995-01-01 12:00:00' - INTERVAL '1 day' AND "
      "CAST(CAST(c_date AS TIMESTAMP) AS DATE) < DATE '1997-01-01' GROUP BY 1, 2");
  REQUIRE(g.refused == "");
  for (const char* part : {"tally_dates::timestamp_trunc(", "tally_dates::timestamp_field(",
                           "kStatusTimestampOutOfRange", "tally_dates::floor_div("}) {
    INFO(part);
    CHECK(contains(g.source, part));
  }
  g = generate("SELECT MAX(CAST(c_date AS TIMESTAMP) + INTERVAL '1 hour') FROM nulls");
  CHECK(contains(g.refused, "TIMESTAMP +/- INTERVAL of a column"));
}

TEST_CASE("scalar functions codegen: TIMESTAMPTZ and TIME are int64 device code") {
  Generated g = generate(
      "SELECT CAST(CAST(c_date AS TIMESTAMPTZ) AS TIME) AS t, EXTRACT(HOUR FROM "
      "CAST(CAST(c_date AS TIMESTAMP) AS TIME)), MIN(CAST(c_date AS TIMESTAMPTZ)), COUNT(*) "
      "FROM nulls WHERE CAST(c_date AS TIMESTAMPTZ) >= TIMESTAMPTZ '1995-01-01 12:00:00+02' "
      "GROUP BY 1, 2");
  REQUIRE(g.refused == "");
  CHECK(contains(g.source, "tally_dates::time_field("));
  g = generate(
      "SELECT MAX(CAST(CAST(c_date AS TIMESTAMP) AS TIME) + INTERVAL '1 hour') FROM nulls");
  CHECK(contains(g.refused, "TIME +/- INTERVAL of a column"));
}

TEST_CASE("scalar functions codegen: HUGEINT keys - casts and checked arithmetic are int128 code") {
  Generated g = generate(
      "SELECT CAST(c_bigint AS HUGEINT) * 3 - 1 AS h, CAST(c_integer AS HUGEINT), COUNT(*), "
      "MIN(-CAST(c_bigint AS HUGEINT)), MAX(ABS(CAST(c_wide AS HUGEINT)) / 7 % 5), "
      "SUM(CAST(c_integer AS HUGEINT)), AVG(CAST(c_smallint AS HUGEINT)), "
      "MAX(CAST(CAST(c_bigint AS HUGEINT) AS DECIMAL(30,2))) FROM nulls WHERE "
      "CAST(c_bigint AS HUGEINT) > 18446744073709551616 - c_integer GROUP BY 1, 2");
  REQUIRE(g.refused == "");
  for (const char* part : {"mul_hugeint(", "sub_hugeint(", "neg_hugeint(", "div_hugeint(",
                           "mod_hugeint(", "tally_finals::average_double("}) {
    INFO(part);
    CHECK(contains(g.source, part));
  }
  // One HUGEINT key alone takes every 128-bit value: KeyWords, never Decimal128's EMPTY.
  g = generate("SELECT CAST(c_bigint AS HUGEINT) * 2, COUNT(*) FROM nulls GROUP BY 1");
  REQUIRE(g.refused == "");
  CHECK(!contains(g.source, "Key128{"));
  g = generate("SELECT COUNT(DISTINCT CAST(c_bigint AS HUGEINT)) FROM nulls");
  CHECK(contains(g.refused, "COUNT of a HUGEINT"));
  g = generate("SELECT MAX(CAST(c_double AS HUGEINT)) FROM nulls");
  CHECK(contains(g.refused, "CAST from DOUBLE to HUGEINT"));
}

TEST_CASE("scalar functions codegen: string functions of one column are per-code lookups") {
  Generated g = generate(
      "SELECT upper(c_varchar), length(c_varchar), COUNT(*), SUM(c_integer) FROM nulls "
      "WHERE c_varchar ILIKE '%A%' AND starts_with(lower(c_varchar), 'e') = false "
      "GROUP BY 1, 2");
  REQUIRE(g.refused == "");
  CHECK(g.lookups.size() >= 3);
  g = generate(
      "SELECT substring(c_varchar FROM 2 FOR 3) || '!', MAX(concat(c_varchar, '-', 'x')), "
      "COUNT(DISTINCT replace(trim(c_varchar), 'a', 'b')) FROM nulls GROUP BY 1");
  REQUIRE(g.refused == "");
  CHECK(!g.lookups.empty());
}

TEST_CASE("scalar functions codegen: shapes the GPU cannot run are refused naming them") {
  // Strings computed from other than one VARCHAR column have no bounded domain.
  Generated g = generate("SELECT strftime(c_date, '%Y-%m'), COUNT(*) FROM nulls GROUP BY 1");
  CHECK(contains(g.refused, "strftime(c_date, '%Y-%m')"));
  CHECK(contains(g.refused, "not supported on the GPU"));
  g = generate("SELECT left(c_varchar, c_smallint), COUNT(*) FROM nulls GROUP BY 1");
  CHECK(contains(g.refused, "left(c_varchar, c_smallint)"));
  g = generate(
      "SELECT COUNT(*) FROM nulls WHERE length(c_varchar || CAST(c_integer AS VARCHAR)) > 5");
  CHECK(contains(g.refused, "not supported on the GPU"));
}

TEST_CASE("scalar functions codegen: every INTERVAL value is declined by name") {
  const char* const queries[] = {
      "SELECT SUM(CAST(c_date AS TIMESTAMP) - TIMESTAMP '1995-01-01 00:00:00') FROM nulls",
      "SELECT COUNT(*) FROM nulls WHERE CAST(c_date AS TIMESTAMP) - TIMESTAMP '1995-01-01 "
      "00:00:00' > INTERVAL '1 day'",
      "SELECT EXTRACT(DAY FROM CAST(c_date AS TIMESTAMP) - TIMESTAMP '1995-01-01 00:00:00') AS "
      "d, COUNT(*) FROM nulls GROUP BY 1",
      "SELECT MAX(CAST(c_date AS TIMESTAMP) + INTERVAL '1 day' * 2) FROM nulls"};
  for (const char* sql : queries) {
    for (GpuStrategy strategy : {GpuStrategy::Auto, GpuStrategy::Direct, GpuStrategy::Hash}) {
      INFO(sql, " under ", strategy_name(strategy));
      const Generated g = generate(sql, strategy);
      CHECK(g.source.empty());
      CHECK(contains(g.refused, "INTERVAL"));
    }
  }
}

}  // namespace tally
