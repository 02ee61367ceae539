// Running one query on the GPU under every grouping strategy and comparing each result with
// the CPU engine's: the check the aggregate and grouping-form GPU tests share.
#pragma once

#include <string>
#include <utility>

#include "runtime/session/database.h"
#include "tests/unit/support/result_compare.h"

namespace tally::test {

// Exact columns exactly, floating-point ones to `relative` or 1e-9 absolute (sums that cancel
// near 0), whichever is larger: atomics add in another order than the CPU's threads.
std::vector<ColumnTolerance> gpu_tolerances(const Result& r, double relative = 1e-9);

// The last result of `sql` run with `device` and `strategy` in `db` (a hash table's first
// capacity `hash_capacity` where not 0).
Result run_on_device(Database& db, const std::string& sql, DeviceChoice device,
                     const std::string& strategy, uint64_t hash_capacity = 0);

// `sql` on the GPU under auto, thread, block, direct and hash against the CPU engine, to
// gpu_tolerances(relative). A strategy
// may refuse the query's shape (Unsupported), auto never. Returns how many strategies ran.
int compare_gpu_strategies(Database& db, const std::string& sql, double relative = 1e-9);

// The result and --explain text of `sql` on the GPU with the block strategy forced.
std::pair<Result, std::string> run_forced_block(Database& db, const std::string& sql);
// The same under `strategy`, or under `options` (on the GPU, explained).
std::pair<Result, std::string> run_explained(Database& db, const std::string& sql,
                                             const std::string& strategy);
std::pair<Result, std::string> run_explained(Database& db, const std::string& sql,
                                             ExecOptions options);

// `sql` on the GPU over columns streamed from host memory in batches of `batch_rows`,
// checked to run streamed and to give the CPU engine's result; returns the --explain text.
std::string check_streamed(Database& db, const std::string& sql, uint64_t batch_rows);

// The GPU refuses `sql` as Unsupported with a message holding `reason`, and auto runs it on
// the CPU engine, whose answer it returns unchanged.
void check_declined_to_cpu(Database& db, const std::string& sql, const std::string& reason);

}  // namespace tally::test
