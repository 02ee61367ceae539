#include "compiler/plan/partial_states.h"

#include <fmt/format.h>

namespace tally {

namespace {

// Why aggregate a's device state has no exact host counterpart, or nothing.
std::optional<std::string> why_aggregate_does_not_combine(const AggregateCall& call,
                                                          StateKind state) {
  if (call.distinct) {
    // The values seen so far live in the device's DISTINCT set; the fields count only the
    // values new to this part, so a value in two parts would count twice.
    return fmt::format("{}(DISTINCT ...) keeps its set of values on the GPU",
                       aggregate_sql_name(call.kind));
  }
  if (state == StateKind::ApproxDistinct) {
    return fmt::format("{}'s 1 KiB sketch has no 16-byte state cell",
                       aggregate_sql_name(call.kind));
  }
  const bool arg_pair = state == StateKind::ArgMin || state == StateKind::ArgMax ||
                        state == StateKind::ArgMinWide || state == StateKind::ArgMaxWide;
  if (arg_pair && call.key->type.is_string()) {
    // The part's state holds the key's code, which no other part's codes compare with.
    return fmt::format("{} ordered by a string", aggregate_sql_name(call.kind));
  }
  return std::nullopt;
}

}  // namespace

std::optional<std::string> why_states_do_not_combine(const BoundSelect& query,
                                                     const GpuPlan& plan) {
  if (plan.projection) return "a query without GROUP BY or aggregates keeps no states";
  if (plan.layout.aggregate_states.size() != query.aggregates.size()) {
    return "the plan's state layout is not this query's";
  }
  for (size_t a = 0; a < query.aggregates.size(); ++a) {
    const AggregateCall& call = query.aggregates[a];
    if (auto why = why_aggregate_does_not_combine(call, plan.layout.aggregate_states[a])) {
      return fmt::format("the states of \"{}\" cannot be combined across parts: {}",
                         call.text.str(), *why);
    }
  }
  return std::nullopt;
}

}  // namespace tally
