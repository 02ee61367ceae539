// CI half of GROUP BY shapes whose keys do not pack into one 64-bit word: several keys with
// one computed (or unbounded) key, and a DECIMAL wider than 18 digits, run through the hash
// table with 128-bit keys; two or more such keys, or a wide DECIMAL beside others, with key
// words (HashKeyLayout::KeyWords). The planner chooses the layout, --explain says it, the plan
// fingerprint tells it apart, and the generated CUDA compiles with NVRTC for sm_90 without
// a warning — no GPU needed (tests/gpu/wide_keys_test.cpp compares results on one).
#include <doctest/doctest.h>

#include <string>

#include "compiler/common/error.h"
#include "runtime/compile/nvrtc.h"
#include "tests/unit/support/planner_fixture.h"
#include "tests/unit/support/text_check.h"

namespace tally {
namespace {

Database& keys_db() {
  // b and b2 span more than 2^40 each: together their digits pass 2^62.
  static Database* db = test::make_planner_db(
      "CREATE TABLE wide_t (d DECIMAL(30,2), k INTEGER, b BIGINT, b2 BIGINT);"
      "INSERT INTO wide_t VALUES (12345678901234567890123.45, 1, 0, 0), "
      "(-0.50, 2, 1099511627776000, -1099511627776000), (NULL, NULL, -5, 7)");
  return *db;
}

BoundSelect bind(const std::string& sql) { return test::bind_first(keys_db(), sql); }

GpuPlan plan_of(const std::string& sql, GpuStrategy strategy = GpuStrategy::Auto) {
  return test::plan_bound(keys_db(), bind(sql), strategy);
}

std::string unsupported_message(const std::string& sql) {
  try {
    plan_of(sql);
  } catch (const Error& e) {
    CHECK(e.kind() == ErrorKind::Unsupported);
    return e.what();
  }
  return "";
}

// Generates and compiles `sql` (at `capacity` hash slots when > 0); checks NVRTC was silent.
GpuCompilation compile_clean(const std::string& sql, uint64_t capacity = 0) {
  BoundSelect query = bind(sql);
  TablePtr table = keys_db().table(query.table);
  std::vector<ColumnStats> stats = scan_stats(query, *table);
  GpuCompileOptions options;
  options.hash_capacity = capacity;
  GpuPlan plan = plan_for(query, stats, table->rows(), options);
  GpuCompilation c = compile_plan(query, stats, plan, "sm_90");
  INFO(sql);
  INFO(c.program->source);
  CHECK_MESSAGE(c.binary->log.empty(), "NVRTC said: " << c.binary->log);
  CHECK((contains(c.program->source, "GlobalTable128Ref") ||
         contains(c.program->source, "GlobalTableWordsRef<")));
  return c;
}

const char* const kComputedBesideColumn =
    "SELECT l_orderkey * 100000000000000 + l_partkey, l_linestatus, COUNT(*) FROM lineitem "
    "GROUP BY l_orderkey * 100000000000000 + l_partkey, l_linestatus";

const char* const kWideShapes[] = {
    kComputedBesideColumn,
    // NULLs in the computed key and in the bounded ones, strings and DISTINCT.
    "SELECT c_varchar, c_double + c_smallint * 3, c_boolean, COUNT(c_integer), SUM(c_decimal), "
    "COUNT(DISTINCT c_date) FROM nulls GROUP BY c_varchar, c_double + c_smallint * 3, c_boolean",
    // A DOUBLE key beside a column, and a DOUBLE variance (the second, find-only pass).
    "SELECT c_integer, c_double * 2, VAR_SAMP(c_double), AVG(c_decimal) FROM nulls "
    "GROUP BY c_integer, c_double * 2",
    // A wide DECIMAL key with NULLs, a computed one too.
    "SELECT c_wide, COUNT(*), MIN(c_integer) FROM nulls GROUP BY c_wide",
    "SELECT d, SUM(k) FROM wide_t GROUP BY d",
    "SELECT c_wide * 2, STDDEV_SAMP(c_double) FROM nulls GROUP BY c_wide * 2",
    // Bounded keys whose digits pass 2^62: the widest goes raw.
    "SELECT b, b2, k, COUNT(*) FROM wide_t GROUP BY b, b2, k",
    // Key words: two computed keys (a DOUBLE variance's find-only pass too), a wide DECIMAL
    // beside other keys.
    "SELECT c_double + 1, c_real * 2, COUNT(*), VAR_SAMP(c_double) FROM nulls GROUP BY 1, 2",
    "SELECT c_wide, c_integer, c_varchar, COUNT(*), SUM(c_decimal) FROM nulls GROUP BY 1, 2, 3",
    "SELECT b, b2, k * 1e0, COUNT(*) FROM wide_t GROUP BY b, b2, k * 1e0",
};

}  // namespace

TEST_CASE("wide keys: several keys with one computed key take 128-bit hash keys") {
  GpuPlan plan = plan_of(kComputedBesideColumn);
  CHECK(plan.strategy == GpuStrategy::Hash);
  CHECK(plan.hash_keys == HashKeyLayout::RawAndDigits128);
  REQUIRE(plan.keys.size() == 2);
  CHECK_FALSE(plan.keys[0].bounded);
  CHECK(plan.keys[1].bounded);
  CHECK(hash_key_bytes(plan) == 16);
  // The table keeps the 64-bit layout of states: probed slots, side slot, NULL slot.
  CHECK(plan.state_slots == plan.slots + 2);
  // No other strategy has a slot for an unbounded key.
  CHECK_THROWS_AS(plan_of(kComputedBesideColumn, GpuStrategy::Direct), Error);
  // One computed key alone keeps the 64-bit table.
  CHECK(
      plan_of("SELECT l_orderkey * 100000000000000, COUNT(*) FROM lineitem GROUP BY 1").hash_keys ==
      HashKeyLayout::Word64);
  // A computed key the statistics bound is a digit like a column's.
  GpuPlan bounded = plan_of("SELECT l_orderkey * 7 + l_partkey, COUNT(*) FROM lineitem GROUP BY 1");
  REQUIRE(bounded.keys.size() == 1);
  CHECK(bounded.keys[0].bounded);
}

TEST_CASE("wide keys: a DECIMAL wider than 18 digits is a 128-bit key") {
  GpuPlan plan = plan_of("SELECT c_wide, COUNT(*) FROM nulls GROUP BY c_wide");
  CHECK(plan.strategy == GpuStrategy::Hash);
  CHECK(plan.hash_keys == HashKeyLayout::Decimal128);
  CHECK(plan.keys[0].nullable);  // its NULL takes the NULL slot
}

TEST_CASE("wide keys: bounded keys whose digits pass 2^62 put the widest raw") {
  GpuPlan plan = plan_of("SELECT b, b2, k, COUNT(*) FROM wide_t GROUP BY b, b2, k");
  CHECK(plan.hash_keys == HashKeyLayout::RawAndDigits128);
  // b spans -5 .. 2^40 * 1000, b2 -2^40 * 1000 .. 7: two values more, so b2 goes raw.
  CHECK(plan.keys[0].bounded);
  CHECK_FALSE(plan.keys[1].bounded);
  CHECK(plan.keys[2].bounded);
}

TEST_CASE("wide keys: two raw keys or a wide DECIMAL beside others take key words") {
  GpuPlan two = plan_of("SELECT c_double + 1, c_real * 2, COUNT(*) FROM nulls GROUP BY 1, 2");
  CHECK(two.strategy == GpuStrategy::Hash);
  CHECK(two.hash_keys == HashKeyLayout::KeyWords);
  CHECK(two.hash_key_words == 3);  // the digits (two NULL flags), then one word a key
  CHECK(hash_key_bytes(two) == 24);
  // The marks (4 bytes a slot, padded to 8) come before the words.
  CHECK(hash_table_bytes(two) == ((two.slots + 1) * 4 + 7) / 8 * 8 + (two.slots + 1) * 24);
  CHECK(two.state_slots == two.slots + 2);
  GpuPlan wide = plan_of("SELECT c_wide, c_integer, COUNT(*) FROM nulls GROUP BY 1, 2");
  CHECK(wide.hash_keys == HashKeyLayout::KeyWords);
  CHECK(wide.hash_key_words == 3);  // the digits, then the DECIMAL's two words
  CHECK(wide.keys[1].bounded);
  // Raw keys beside bounded ones whose digits pass 2^62: the widest bounded one goes raw too.
  GpuPlan three = plan_of("SELECT b, b2, k * 1e0, COUNT(*) FROM wide_t GROUP BY b, b2, k * 1e0");
  CHECK(three.hash_keys == HashKeyLayout::KeyWords);
  CHECK_THROWS_AS(plan_of("SELECT c_double + 1, c_real * 2, COUNT(*) FROM nulls GROUP BY 1, 2",
                          GpuStrategy::Direct),
                  Error);
}

TEST_CASE("wide keys: keys past the key words' limit are refused by name") {
  std::string many = unsupported_message(
      "SELECT c_wide, c_wide + 1, c_wide + 2, c_wide + 3, COUNT(*) FROM nulls GROUP BY 1, 2, 3, 4");
  CHECK(contains(many, "take 9 64-bit words (more than 8)"));
  CHECK(contains(many, "not supported on the GPU"));
}

TEST_CASE("wide keys: --explain says the key layout") {
  CHECK(contains(describe_plan(plan_of(kComputedBesideColumn)),
                 "hash keys: 128-bit (lo = the raw key, hi = the digits with its NULL flag last)"));
  CHECK(contains(describe_plan(plan_of(kComputedBesideColumn)),
                 "key0: raw 64-bit value in the low word"));
  std::string decimal = describe_plan(plan_of("SELECT d, COUNT(*) FROM wide_t GROUP BY d"));
  CHECK(contains(decimal, "hash keys: 128-bit (the DECIMAL value)"));
  CHECK(contains(decimal, "NULL in its own slot"));
  std::string words =
      describe_plan(plan_of("SELECT c_double + 1, c_real * 2, COUNT(*) FROM nulls GROUP BY 1, 2"));
  CHECK(contains(words, "hash keys: 3 x 64-bit words"));
  CHECK(contains(words, "key1: raw value in words of its own"));
  CHECK_FALSE(contains(describe_plan(plan_of("SELECT l_orderkey * 7, COUNT(*) FROM lineitem "
                                             "GROUP BY 1")),
                       "hash keys"));
}

TEST_CASE("wide keys: the plan fingerprint tells the key layouts apart") {
  GpuPlan plan = plan_of(kComputedBesideColumn);
  GpuPlan other = plan;
  other.hash_keys = HashKeyLayout::Decimal128;
  CHECK(plan_fingerprint(plan, {}, "sm_90") != plan_fingerprint(other, {}, "sm_90"));
  other.hash_keys = HashKeyLayout::Word64;
  CHECK(plan_fingerprint(plan, {}, "sm_90") != plan_fingerprint(other, {}, "sm_90"));
  other.hash_keys = HashKeyLayout::KeyWords;
  other.hash_key_words = 3;
  GpuPlan four = other;
  four.hash_key_words = 4;
  CHECK(plan_fingerprint(four, {}, "sm_90") != plan_fingerprint(other, {}, "sm_90"));
}

TEST_CASE("wide keys: generated CUDA compiles with NVRTC for sm_90 without warnings") {
  if (!cuda::nvrtc_available()) {
    MESSAGE("libnvrtc not found: skipped");
    return;
  }
  for (const char* sql : kWideShapes) compile_clean(sql);
  // A small first capacity, as the grow-and-rerun tests force it.
  GpuCompilation small = compile_clean(kComputedBesideColumn, 16);
  CHECK(small.plan.slots == 16);
  CHECK(contains(small.program->source, "table.insert_or_find(Key128{"));
}

}  // namespace tally
