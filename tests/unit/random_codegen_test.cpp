// The random query generator in CI (no GPU): its queries are valid SQL that the CPU engine
// runs, and every one the GPU path accepts generates CUDA that NVRTC compiles for sm_90.
// tests/gpu/random_diff_test.cpp runs the same generator against a real GPU.
#include <doctest/doctest.h>
#include <fmt/ranges.h>

#include <chrono>
#include <cstdlib>
#include <map>
#include <string>

#include "tests/unit/support/query_generator.h"
#include "tests/unit/support/result_compare.h"

namespace tally::test {

namespace {

ExecOptions cpu_options(std::vector<std::string> parameters) {
  ExecOptions options;
  options.device = DeviceChoice::Cpu;
  options.parameters = std::move(parameters);
  return options;
}

struct CpuCheck {
  size_t queries = 0, errors = 0, empty = 0, mismatches = 0, partitions = 0;
};

// Runs instance `i` of `shape` on the CPU, with parameters and with the values inlined: a
// valid query either runs or raises an execution error, and both spellings agree.
void check_on_cpu(Database& db, const QueryShape& shape, size_t i, uint64_t seed, size_t index,
                  CpuCheck& check) {
  RunOutcome with_parameters = run_outcome(db, shape.sql, cpu_options(shape.parameters_of(i)));
  ++check.queries;
  INFO("seed ", seed, ", query ", index, ", instance ", i, ": ", shape.sql);
  if (!with_parameters.ok) {
    ++check.errors;
    CHECK_MESSAGE(with_parameters.error_kind == ErrorKind::Execution,
                  error_kind_name(with_parameters.error_kind)
                      << " error: " << with_parameters.error);
  } else if (with_parameters.result.rows.empty()) {
    ++check.empty;
  }
  std::string inlined = shape.inlined(i);
  RunOutcome with_constants = run_outcome(db, inlined, cpu_options({}));
  bool same = with_parameters.ok == with_constants.ok;
  std::string difference;
  if (same && with_parameters.ok) {
    difference = result_difference(with_parameters.result, with_constants.result, shape.tolerances);
    same = difference.empty();
  }
  if (!same) {
    ++check.mismatches;
    FAIL_CHECK("parameters and inlined constants disagree\n  inlined: "
               << inlined << "\n  " << difference << "\n  with parameters: "
               << (with_parameters.ok ? result_text(with_parameters.result) : with_parameters.error)
               << "\n  inlined: "
               << (with_constants.ok ? result_text(with_constants.result) : with_constants.error));
  }
}

// Per group (the key columns' text), the last column: a count.
std::map<std::string, int64_t> group_counts(const Result& r) {
  std::map<std::string, int64_t> counts;
  for (size_t row = 0; row < r.rows.size(); ++row) {
    std::string key;
    for (size_t c = 0; c + 1 < r.names.size(); ++c) key += r.cell_text(row, c) + "\x1f";
    counts[key] += r.rows[row].back().i;
  }
  return counts;
}

// The filter as a value (CASE WHEN filter THEN 1 ELSE 0 END, summed per group) counts the
// rows that the filter as a WHERE clause keeps.
void check_filter_as_value(Database& db, const QueryShape& shape, size_t i, const std::string& keys,
                           const std::string& group_by, bool raises, CpuCheck& check) {
  std::vector<std::string> parameters = shape.filter_parameters_of(i);
  std::string kept = fmt::format("SELECT {}COUNT(*) FROM {} WHERE {}{}", keys, shape.table,
                                 shape.filter, group_by);
  std::string counted = fmt::format("SELECT {}SUM(CASE WHEN {} THEN 1 ELSE 0 END) FROM {}{}", keys,
                                    shape.filter, shape.table, group_by);
  RunOutcome a = run_outcome(db, kept, cpu_options(parameters));
  RunOutcome b = run_outcome(db, counted, cpu_options(parameters));
  auto nonzero = [](std::map<std::string, int64_t> counts) {
    std::erase_if(counts, [](const auto& entry) { return entry.second == 0; });
    return counts;
  };
  bool same = a.ok == b.ok && (raises || a.ok);
  if (same && a.ok) same = nonzero(group_counts(a.result)) == nonzero(group_counts(b.result));
  if (!same) {
    ++check.mismatches;
    FAIL_CHECK("the filter as WHERE and as CASE WHEN ... THEN 1 count different rows:\n  "
               << kept << "\n  -> " << (a.ok ? result_text(a.result) : a.error) << "\n  " << counted
               << "\n  -> " << (b.ok ? result_text(b.result) : b.error)
               << "\n  parameters: " << fmt::format("{}", fmt::join(parameters, ", ")));
  }
}

// Ternary logic partitioning: the rows where the filter is TRUE, FALSE or NULL are all the
// rows, so per group the COUNT(*)s of the three add up to the COUNT(*) without the filter.
void check_partition(Database& db, const QueryShape& shape, size_t i, CpuCheck& check) {
  if (shape.filter.empty()) return;
  std::string keys;
  for (const auto& k : shape.keys) keys += k + ", ";
  std::string group_by = keys.empty() ? "" : " GROUP BY " + keys.substr(0, keys.size() - 2);
  auto count_query = [&](const std::string& where) {
    return fmt::format("SELECT {}COUNT(*) FROM {}{}{}", keys, shape.table, where, group_by);
  };
  RunOutcome whole = run_outcome(db, count_query(""), cpu_options({}));
  if (!whole.ok) return;  // a key raises on rows that the filter would have dropped
  std::map<std::string, int64_t> sum;
  int raised = 0;
  std::string texts;
  for (const char* form : {"({})", "NOT ({})", "({}) IS NULL"}) {
    std::string sql = count_query(" WHERE " + fmt::format(fmt::runtime(form), shape.filter));
    RunOutcome part = run_outcome(db, sql, cpu_options(shape.filter_parameters_of(i)));
    texts += "\n  " + sql + "\n  -> " + (part.ok ? result_text(part.result) : part.error);
    if (!part.ok) {
      ++raised;
      continue;
    }
    if (keys.empty() && part.result.rows.size() == 1 && part.result.rows[0][0].i == 0) continue;
    for (const auto& [key, n] : group_counts(part.result)) sum[key] += n;
  }
  ++check.partitions;
  bool same = raised == 0 ? sum == group_counts(whole.result) : raised == 3;
  if (!same) {
    ++check.mismatches;
    FAIL_CHECK("the TRUE, FALSE and NULL parts of a filter do not add up to the whole:"
               << texts << "\n  parameters: "
               << fmt::format("{}", fmt::join(shape.filter_parameters_of(i), ", "))
               << "\n  whole: " << result_text(whole.result));
  }
  check_filter_as_value(db, shape, i, keys, group_by, raised == 3, check);
}

void run_cpu_queries(uint64_t seed, size_t shapes) {
  Database& db = fuzz_database();
  QueryGenerator generator(seed, 2);
  CpuCheck check;
  for (size_t s = 0; s < shapes; ++s) {
    QueryShape shape = generator.next();
    for (size_t i = 0; i < shape.instances; ++i) {
      check_on_cpu(db, shape, i, seed, s, check);
      if (i == 0) check_partition(db, shape, i, check);
    }
  }
  MESSAGE("CPU: " << check.queries << " queries (seed " << seed << "), " << check.errors
                  << " raised execution errors, " << check.empty << " returned no rows; "
                  << check.partitions << " filters partitioned");
  CHECK(check.mismatches == 0);
  // The generator means most queries to run: errors are the rare deliberate ones.
  CHECK(check.errors * 5 < check.queries);
}

}  // namespace

TEST_CASE("query generator: one seed gives the same queries - another seed others") {
  QueryGenerator a(42), b(42), c(43);
  std::map<std::string, int> tables;
  for (int i = 0; i < 200; ++i) {
    QueryShape x = a.next(), y = b.next(), z = c.next();
    CHECK(x.sql == y.sql);
    CHECK(x.parameters == y.parameters);
    CHECK(x.sql != z.sql);
    ++tables[x.table];
    size_t marks = static_cast<size_t>(std::count(x.sql.begin(), x.sql.end(), '?'));
    CHECK(marks == x.parameters.size());
    for (const auto& p : x.parameters) CHECK(p.size() == x.instances);
  }
  CHECK(tables.size() == fuzz_tables().size());  // every table is drawn from
}

TEST_CASE("random queries bind and run on the CPU engine - with parameters or constants") {
  run_cpu_queries(fuzz_env("TALLY_FUZZ_SEED", 20240611), 30);
}

// A long run for finding CPU engine and binder bugs by hand:
//   TALLY_FUZZ_COUNT=2000 ./tests/tally_tests -tc="random queries on the CPU engine*" --no-skip
TEST_CASE("random queries on the CPU engine - long" * doctest::skip()) {
  run_cpu_queries(fuzz_env("TALLY_FUZZ_SEED", 1), fuzz_env("TALLY_FUZZ_COUNT", 500));
}

TEST_CASE("random queries: every query the GPU path takes compiles with NVRTC for sm_90") {
  Database& db = fuzz_database();
  const uint64_t seed = fuzz_env("TALLY_FUZZ_SEED", 20240611) + 1;
  QueryGenerator generator(seed, 1);
  std::map<std::string, int> unsupported;
  int compiled = 0, attempts = 0;
  auto start = std::chrono::steady_clock::now();
  for (int q = 0; q < 40; ++q) {
    QueryShape shape = generator.next();
    for (const char* strategy : {"auto", "thread", "block", "direct", "hash"}) {
      ExecOptions options;
      options.compile_only = true;
      options.strategy = strategy;
      options.hash_capacity = std::string(strategy) == "hash" && q % 2 ? 64 : 0;
      RunOutcome out = run_outcome(db, shape.sql, options);
      ++attempts;
      if (out.ok) {
        ++compiled;
      } else if (out.error_kind == ErrorKind::Unsupported) {
        ++unsupported[strategy];
      } else {
        FAIL_CHECK("seed " << seed << ", query " << q << ", strategy " << strategy << ": "
                           << error_kind_name(out.error_kind) << " error: " << out.error << "\n  "
                           << shape.sql);
      }
    }
  }
  double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  std::string by_strategy;
  for (const auto& [s, n] : unsupported) by_strategy += fmt::format(" {}: {}", s, n);
  MESSAGE("NVRTC: " << compiled << " of " << attempts << " compiled in " << seconds
                    << " s; unsupported by strategy:" << by_strategy);
  CHECK(compiled > attempts / 4);  // most queries reach the compiler under some strategy
}

}  // namespace tally::test
