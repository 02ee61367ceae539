#include "compiler/plan/result_order.h"

namespace tally {

std::optional<std::vector<OrderCell>> result_order_cells(const BoundSelect& query,
                                                         const GpuPlan& plan) {
  // HAVING on the host comes after the choice; on the device the cells are its survivors.
  if (query.order_by.empty() || (query.having && !plan.having_on_device()) ||
      query.distinct_outputs || !query.distinct_on.empty()) {
    return std::nullopt;
  }
  std::vector<OrderCell> cells;
  for (const SortKey& key : query.order_by) {
    const Expr& e = *query.outputs[static_cast<size_t>(key.output)].expr;
    const bool aggregate = e.kind == ExprKind::AggregateRef;
    if (!aggregate && e.kind != ExprKind::GroupKeyRef) return std::nullopt;
    // The cell's type, which the host decodes it by (runtime/gpu/gpu_engine.cpp from_cell).
    const auto index = static_cast<size_t>(e.index);
    const Type& type =
        aggregate ? query.aggregates.at(index).type : query.group_keys.at(index)->type;
    if (type.is_string()) return std::nullopt;
    if (!aggregate && plan.keys.at(index).dictionary_column >= 0) return std::nullopt;
    cells.push_back({aggregate, e.index, type});
  }
  return cells;
}

}  // namespace tally
