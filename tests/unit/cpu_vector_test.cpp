// The CPU engine's vector path against its row path, the reference: random GROUP BY /
// aggregate queries from the differential generator (tests/unit/support/query_generator.h)
// run on both, whose results must match (exactly, DOUBLE columns within the generator's
// tolerances) and whose errors must be the same error. TALLY_FUZZ_SEED and
// TALLY_VECTOR_SHAPES pick other or more queries.
#include <doctest/doctest.h>

#include <map>

#include "tests/unit/support/query_generator.h"
#include "tests/unit/support/result_compare.h"

namespace tally::test {

namespace {

constexpr uint64_t kSeed = 0x5ec7012ull;

ExecOptions path_options(CpuPath path, std::vector<std::string> parameters, unsigned threads = 0) {
  ExecOptions options;
  options.device = DeviceChoice::Cpu;
  options.cpu_path = path;
  options.cpu_threads = threads;
  options.parameters = std::move(parameters);
  return options;
}

std::string outcome_text(const RunOutcome& o) {
  return o.ok ? result_text(o.result)
              : fmt::format("{} error: {}\n", error_kind_name(o.error_kind), o.error);
}

// "" when the vector path's outcome is the row path's. Which row raises first depends on
// which worker gets there first, so different errors are compared again on one worker.
std::string difference(Database& db, const QueryShape& shape,
                       const std::vector<std::string>& parameters, const RunOutcome& row,
                       const RunOutcome& vec) {
  if (!row.ok && !vec.ok) {
    if (row.error_kind == vec.error_kind && row.error == vec.error) return "";
    const RunOutcome one_row =
        run_outcome(db, shape.sql, path_options(CpuPath::Row, parameters, 1));
    const RunOutcome one_vec =
        run_outcome(db, shape.sql, path_options(CpuPath::Vector, parameters, 1));
    if (one_row.error_kind == one_vec.error_kind && one_row.error == one_vec.error) return "";
    return "the paths raised different errors (on one worker: " + one_row.error + " | " +
           one_vec.error + ")";
  }
  if (row.ok != vec.ok) return row.ok ? "only the vector path raised" : "only the row path raised";
  return result_difference(row.result, vec.result, shape.tolerances);
}

struct Counts {
  size_t queries = 0, vectorized = 0, both_raised = 0, mismatches = 0;
  std::map<std::string, size_t> declined;
};

}  // namespace

TEST_CASE("cpu vector path: random queries give the row path's results and errors") {
  const uint64_t seed = fuzz_env("TALLY_FUZZ_SEED", kSeed);
  const size_t shapes = fuzz_env("TALLY_VECTOR_SHAPES", 160);
  Database db;
  register_fuzz_tables(db);
  QueryGenerator generator(seed, 2);
  Counts n;
  for (size_t s = 0; s < shapes; ++s) {
    const QueryShape shape = generator.next();
    for (size_t i = 0; i < shape.instances; ++i) {
      const auto parameters = shape.parameters_of(i);
      ++n.queries;
      const RunOutcome row = run_outcome(db, shape.sql, path_options(CpuPath::Row, parameters));
      const RunOutcome vec = run_outcome(db, shape.sql, path_options(CpuPath::Vector, parameters));
      if (!vec.ok && vec.error_kind == ErrorKind::Unsupported) {
        ++n.declined[unsupported_reason(vec.error)];
        continue;
      }
      ++n.vectorized;
      n.both_raised += !row.ok && !vec.ok;
      const std::string diff = difference(db, shape, parameters, row, vec);
      if (diff.empty()) continue;
      ++n.mismatches;
      FAIL_CHECK("vector path mismatch, seed "
                 << seed << ", query " << s << "." << i << ": " << diff << "\n  SQL: " << shape.sql
                 << "\n  row: " << outcome_text(row) << "  vector: " << outcome_text(vec));
    }
  }
  std::string declined;
  for (const auto& [reason, count] : n.declined) declined += fmt::format("; {}: {}", reason, count);
  MESSAGE(fmt::format("{} queries, {} on the vector path ({} raised on both), {} mismatches{}",
                      n.queries, n.vectorized, n.both_raised, n.mismatches, declined));
  CHECK(n.mismatches == 0);
  CHECK(n.vectorized * 4 > n.queries * 3);  // the test must mostly exercise the vector path
  CHECK(n.both_raised > 0);                 // and the errors
}

}  // namespace tally::test
