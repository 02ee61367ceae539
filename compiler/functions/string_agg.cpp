// STRING_AGG(x [, sep] [ORDER BY ...]) and LISTAGG (DuckDB; PostgreSQL's STRING_AGG needs
// the separator): the group's non-NULL strings joined by sep (',' when not given), NULL
// over none. Without ORDER BY the order is the rows' arrival order, which threads make
// unspecified, as in DuckDB.
#include "compiler/common/error.h"
#include "compiler/functions/aggregate_entries.h"
#include "compiler/functions/value_lists.h"

namespace tally::aggregates {

namespace {

Value final(const HostAggState& s, const AggContext& ctx) {
  if (s.values.empty()) return Value::make_null();
  if (!ctx.results || !ctx.strings) {
    throw Error(ErrorKind::Internal, "STRING_AGG finished without a string heap");
  }
  std::vector<size_t> positions;
  if (!ctx.order.empty()) positions = ordered_positions(s, ctx);
  std::string joined;
  for (size_t i = 0; i < s.values.size(); ++i) {
    if (i > 0) joined += ctx.separator;
    joined += ctx.strings->get(s.values[positions.empty() ? i : positions[i]].i);
  }
  return Value::from_int(ctx.results->intern(joined));
}

AggregateTyping typing(const Type& arg) {
  if (arg.is_string()) return {Type::varchar(), nullptr};
  return {std::nullopt, "the argument must be a string (cast it to VARCHAR)"};
}

StateKind state(const Type&) { return StateKind::StringAgg; }

}  // namespace

const StateInfo kStringAggState = {StateKind::StringAgg,
                                   "StringAgg",
                                   {FieldKind::Count},
                                   SumGrowth::None,
                                   false,
                                   update_list,
                                   combine_lists,
                                   final,
                                   nullptr,
                                   nullptr,
                                   true};

const AggregateFunction kStringAgg = {AggKind::StringAgg,
                                      "STRING_AGG",
                                      {"STRING_AGG", "LISTAGG", "GROUP_CONCAT"},
                                      DistinctRule::Rejected,
                                      typing,
                                      state,
                                      nullptr,
                                      AggExtra::Separator,
                                      WithinGroupRule::Rejected,
                                      &kStringAgg};

}  // namespace tally::aggregates
