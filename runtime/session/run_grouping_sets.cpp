// GROUPING SETS, ROLLUP and CUBE: one ordinary GROUP BY per set (compiler/ir/grouping_sets.h),
// each on the engine the options choose, so every set's groups are exact on either engine;
// the union of their rows is then sorted, made distinct and limited as the query says.
#include <fmt/format.h>

#include "compiler/ir/grouping_sets.h"
#include "runtime/result/result_builder.h"
#include "runtime/session/database.h"

namespace tally {

void Database::run_grouping_sets(const BoundSelect& query, const TablePtr& input,
                                 const std::vector<Value>& parameters,
                                 const std::shared_ptr<StringHeap>& strings,
                                 const ExecOptions& options, StatementOutcome& outcome) {
  std::vector<std::vector<Value>> rows;
  std::string device;  // the engine of every set ("cpu", "gpu: ..."), or each named once
  const std::vector<BoundSelect> sets = split_grouping_sets(query);
  for (size_t s = 0; s < sets.size(); ++s) {
    StatementOutcome part;
    // Each set is its own query: no prepared plan cache, whose plans are for one query.
    run_engine(sets[s], input, parameters, strings, options, nullptr, part);
    for (auto& row : part.result->rows) rows.push_back(std::move(row));
    if (device.find(part.result->device) == std::string::npos) {
      device += (device.empty() ? "" : " and ") + part.result->device;
    }
    if (!part.timings.gpu.empty()) {
      outcome.timings.gpu += fmt::format("{}set {}: {}", s ? "\n" : "", s, part.timings.gpu);
    }
    // The engine's choice is the same for every set but may differ (a set the GPU does
    // not take): each notice once.
    if (!part.notice.empty() && outcome.notice.find(part.notice) == std::string::npos) {
      outcome.notice += (outcome.notice.empty() ? "" : "; ") + part.notice;
    }
  }
  outcome.result = finish_result(query, std::move(rows), parameters, strings);
  outcome.result->device = device;
}

}  // namespace tally
