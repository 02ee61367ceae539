// The interpreted tier against the CPU engine over the random query generator's statements
// (tests/unit/support/query_generator.h), with no GPU: every statement the interpreter takes
// (compile_row_program) runs on the host as its Scan runs on the device
// (tests/unit/support/row_program_host.h) and must give the CPU engine's result, or raise the
// same kind of error where the CPU engine raises one. Each statement runs twice: its values
// written in as constants, then given as `?` parameters, with compared constants lifted into
// parameters as a GPU run lifts them. The interpreter runs a new statement in
// `tally run` and the shell before its own kernels exist, so a wrong answer there is a wrong
// answer users see. TALLY_FUZZ_SEED picks other statements.
#include <doctest/doctest.h>
#include <fmt/ranges.h>

#include <string>
#include <variant>

#include "compiler/bind/binder.h"
#include "compiler/parse/parser.h"
#include "compiler/plan/lifted_constants.h"
#include "runtime/session/parameter_values.h"
#include "runtime/storage/scan_stats.h"
#include "tests/unit/support/query_generator.h"
#include "tests/unit/support/result_compare.h"
#include "tests/unit/support/row_program_host.h"

namespace tally::test {

namespace {

constexpr uint64_t kDefaultSeed = 0x1a7e5eedull;
constexpr size_t kShapes = 300;

struct Tally {
  size_t aggregations = 0, taken = 0, raised = 0, faulted = 0;
};

// The interpreter's run: its outcome, or a row that divides by zero (`faulted`), which takes a
// device run to the statement's own kernels.
struct HostOutcome {
  RunOutcome run;
  bool faulted = false;
};

// The interpreter's outcome for `sql` with parameter values `texts`, where it takes the
// statement. As a GPU run does, compared constants are lifted into parameters first.
std::optional<HostOutcome> interpreted(const std::string& sql,
                                       const std::vector<std::string>& texts) {
  Database& db = fuzz_database();
  auto statements = parse_script(sql);
  const auto* select = std::get_if<ast::SelectStmt>(&statements.at(0).body);
  if (select == nullptr) return std::nullopt;
  const BoundSelect bound = bind_select(*select, db, statements[0].parameter_count);
  if (!bound.aggregated) return std::nullopt;
  auto strings = std::make_shared<StringHeap>();
  const std::shared_ptr<const LiftedConstants> lifted = lift_compared_constants(bound);
  const BoundSelect& q = lifted ? lifted->query : bound;
  const std::vector<Value> parameters =
      lifted_parameters(bound, convert_parameters(bound, texts, *strings), lifted.get());
  const TablePtr table = db.table(q.table);
  const std::vector<ColumnStats> stats = scan_stats(q, *table);
  auto program =
      compile_row_program(row_program_inputs(q, *table, stats, parameters, strings.get()));
  if (!std::holds_alternative<RowProgram>(program)) return std::nullopt;
  HostOutcome out;
  try {
    out.run.result = run_row_program_on_host(std::get<RowProgram>(program), q, *table, parameters,
                                             strings, &out.faulted);
    out.run.ok = true;
  } catch (const Error& e) {
    out.run.error_kind = e.kind();
    out.run.error = e.what();
  }
  return out;
}

// One spelling of a shape: its values inlined as constants, or given as parameters.
void check_spelling(const QueryShape& shape, const std::string& sql,
                    const std::vector<std::string>& texts, Tally& tally) {
  std::optional<HostOutcome> host;
  try {
    host = interpreted(sql, texts);
  } catch (const Error& e) {
    FAIL_CHECK("binding or compiling the row program threw: " << e.what());
    return;
  }
  ++tally.aggregations;
  if (!host) return;
  ++tally.taken;
  ExecOptions cpu;
  cpu.device = DeviceChoice::Cpu;
  cpu.parameters = texts;
  const RunOutcome expected = run_outcome(fuzz_database(), sql, cpu);
  const RunOutcome& run = host->run;
  INFO("CPU engine: ", expected.ok ? "ran" : expected.error, "; interpreter: ",
       host->faulted ? "a row divides by zero"
       : run.ok      ? "ran"
                     : run.error);
  if (host->faulted) {
    // Only where the CPU engine raises: a row it never divides (a CASE branch not taken, a
    // row the filter drops) must not send the statement to its own kernels.
    ++tally.faulted;
    CHECK_FALSE(expected.ok);
    return;
  }
  REQUIRE(expected.ok == run.ok);
  if (!expected.ok) {
    ++tally.raised;
    CHECK(run.error_kind == expected.error_kind);
    return;
  }
  CHECK(result_difference(expected.result, run.result, shape.tolerances) == "");
}

void check_shape(const QueryShape& shape, uint64_t seed, size_t index, Tally& tally) {
  INFO("seed ", seed, ", statement ", index, ": ", shape.inlined(0));
  check_spelling(shape, shape.inlined(0), {}, tally);
  INFO("with parameters ", fmt::format("{}", fmt::join(shape.parameters_of(0), ", ")));
  check_spelling(shape, shape.sql, shape.parameters_of(0), tally);
}

}  // namespace

TEST_CASE("row program random: the statements the interpreter takes give the CPU's results") {
  const uint64_t seed = fuzz_env("TALLY_FUZZ_SEED", kDefaultSeed);
  MESSAGE("TALLY_FUZZ_SEED=" << seed);
  QueryGenerator generator(seed, 1);
  Tally tally;
  for (size_t i = 0; i < kShapes; ++i) check_shape(generator.next(), seed, i, tally);
  MESSAGE(tally.taken << " of " << 2 * kShapes
                      << " statements interpreted (each shape with its values inlined, then as "
                         "parameters), "
                      << tally.raised << " of them raising as the CPU engine does, "
                      << tally.faulted << " dividing by zero where the CPU engine raises");
  // The interpreter took 348-406 of the 600 for the default seed and seeds 1-3 and 7-9 (the
  // rest: DECIMAL values past 64 bits, DOUBLE variances, keys without a bounded domain); a
  // change that declined them all would leave this test checking nothing.
  CHECK(tally.taken * 6 >= 2 * kShapes);
}

}  // namespace tally::test
