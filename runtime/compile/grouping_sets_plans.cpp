#include "runtime/compile/grouping_sets_plans.h"

#include <fmt/format.h>

#include <vector>

#include "compiler/common/error.h"
#include "compiler/ir/grouping_sets.h"

namespace tally {

GroupingSetsChoice plan_grouping_sets_way(const BoundSelect& query, const Table& table,
                                          const GpuCompileOptions& options) {
  auto plan = [&](const BoundSelect& q) {
    return plan_for(q, scan_stats(q, table), table.rows(), options);
  };
  GroupingSetsChoice choice;
  GpuPlan one_pass;
  try {
    one_pass = plan(one_pass_grouping_query(query));
  } catch (const Error& e) {
    if (e.kind() != ErrorKind::Unsupported) throw;
    choice.one_pass = false;
    choice.reason = fmt::format("the one pass has no GPU plan: {}", e.what());
    return choice;
  }
  std::vector<GpuPlan> sets;
  const std::vector<BoundSelect> set_queries = split_grouping_sets(query);
  for (size_t s = 0; s < set_queries.size(); ++s) {
    try {
      sets.push_back(plan(set_queries[s]));
    } catch (const Error& e) {
      if (e.kind() != ErrorKind::Unsupported) throw;
      choice.reason = fmt::format("set {} has no GPU plan of its own: {}", s, e.what());
      return choice;
    }
  }
  return choose_grouping_sets_way(one_pass, sets, options.limits.rates.get());
}

}  // namespace tally
