// --explain: a BoundSelect as readable text, one phase per section.
#include <fmt/format.h>
#include <fmt/ranges.h>

#include "compiler/ir/query.h"

namespace tally {

namespace {

// The state an aggregate keeps, as the table names it; DISTINCT keeps a set of values first.
std::string state_text(const AggregateCall& a) {
  const StateInfo& state = aggregate_state(a.kind, a.arg ? a.arg->type : Type::bigint());
  return a.distinct ? fmt::format("DISTINCT set, then {}", state.name) : state.name;
}

// What a holistic call adds: its fraction, separator, direction or ORDER BY.
std::string aggregate_extras(const AggregateCall& a) {
  const AggregateFunction& f = aggregate_function(a.kind);
  std::string out;
  if (f.extra == AggExtra::Fraction) out += fmt::format(", {}", a.fraction);
  if (f.extra == AggExtra::Separator) out += fmt::format(", '{}'", a.separator);
  if (a.descending) out += " DESC";
  for (size_t k = 0; k < a.order.size(); ++k) {
    out += fmt::format("{}{}{}{}", k == 0 ? " ORDER BY " : ", ", expr_to_string(*a.order[k].expr),
                       a.order[k].descending ? " DESC" : "",
                       a.order[k].nulls_first ? " NULLS FIRST" : " NULLS LAST");
  }
  return out;
}

std::string aggregate_to_string(const AggregateCall& a) {
  if (a.kind == AggKind::CountStar) return "COUNT(*)";
  return fmt::format("{}({}{}{}{})", aggregate_sql_name(a.kind), a.distinct ? "DISTINCT " : "",
                     expr_to_string(*a.arg), a.key ? ", " + expr_to_string(*a.key) : "",
                     aggregate_extras(a));
}

std::string limit_to_string(const std::optional<int64_t>& value, int parameter) {
  if (parameter >= 0) return fmt::format("${}", parameter + 1);
  return value ? std::to_string(*value) : "none";
}

void explain_scan(const BoundSelect& q, std::string& out) {
  out += fmt::format("table: {}\n", q.table.empty() ? "(none: one row)" : q.table);
  out += "scan:";
  if (q.scan.empty()) out += " (no columns)";
  out += "\n";
  for (size_t i = 0; i < q.scan.size(); ++i) {
    out += fmt::format("  #{} {} {}\n", i, q.scan[i].name, q.scan[i].type.to_string());
  }
  if (q.filter) out += fmt::format("filter: {}\n", expr_to_string(*q.filter));
}

void explain_aggregation(const BoundSelect& q, std::string& out) {
  if (!q.aggregated) return;
  out += q.group_keys.empty() ? "group keys: (none: one group)\n" : "group keys:\n";
  for (size_t i = 0; i < q.group_keys.size(); ++i) {
    out += fmt::format("  key{} = {} {}\n", i, expr_to_string(*q.group_keys[i]),
                       q.group_keys[i]->type.to_string());
  }
  // Each set as its keys: "(key0, key1)", "()".
  if (!q.grouping_sets.empty()) out += "grouping sets:\n";
  for (uint64_t mask : q.grouping_sets) {
    std::string keys;
    for (size_t k = 0; k < q.group_keys.size(); ++k) {
      if ((mask >> k) & 1) keys += fmt::format("{}key{}", keys.empty() ? "" : ", ", k);
    }
    out += fmt::format("  ({})\n", keys);
  }
  if (!q.aggregates.empty()) out += "aggregates:\n";
  for (size_t i = 0; i < q.aggregates.size(); ++i) {
    const AggregateCall& a = q.aggregates[i];
    out += fmt::format("  agg{} = {} -> {} [{}]\n", i, aggregate_to_string(a), a.type.to_string(),
                       state_text(a));
  }
  if (q.having) out += fmt::format("having: {}\n", expr_to_string(*q.having));
}

void explain_outputs(const BoundSelect& q, std::string& out) {
  out += q.distinct_outputs ? "outputs (distinct):\n" : "outputs:\n";
  for (size_t i = 0; i < q.outputs.size(); ++i) {
    const OutputColumn& o = q.outputs[i];
    out += fmt::format("  {} {} = {} {}{}\n", i, o.name, expr_to_string(*o.expr),
                       o.expr->type.to_string(), i >= q.visible_outputs ? " (hidden)" : "");
  }
  if (!q.order_by.empty()) out += "order by:\n";
  for (const SortKey& k : q.order_by) {
    out += fmt::format("  output {} {} NULLS {}\n", k.output, k.descending ? "DESC" : "ASC",
                       k.nulls_first ? "FIRST" : "LAST");
  }
  if (!q.distinct_on.empty())
    out += fmt::format("distinct on: outputs {}\n", fmt::join(q.distinct_on, ", "));
  if (q.limit || q.limit_parameter >= 0) {
    out += fmt::format("limit: {}\n", limit_to_string(q.limit, q.limit_parameter));
  }
  if (q.offset != 0 || q.offset_parameter >= 0) {
    out += fmt::format("offset: {}\n", limit_to_string(q.offset, q.offset_parameter));
  }
}

}  // namespace

std::string explain(const BoundSelect& query) {
  std::string out;
  explain_scan(query, out);
  explain_aggregation(query, out);
  explain_outputs(query, out);
  if (!query.parameter_types.empty()) out += "parameters:\n";
  for (size_t i = 0; i < query.parameter_types.size(); ++i) {
    out += fmt::format("  ${} {}\n", i + 1, query.parameter_types[i].to_string());
  }
  return out;
}

}  // namespace tally
