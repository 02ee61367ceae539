#include "runtime/gpu/result_top_k.h"

#include "compiler/common/value_ops.h"
#include "runtime/gpu/gpu_engine_impl.h"
#include "runtime/result/row_sort.h"

namespace tally {

namespace {

// The cell an ORDER BY key reads.
struct OrderCell {
  bool aggregate = false;
  size_t index = 0;
  Type type;
  bool descending = false, nulls_first = false;
};

std::optional<std::vector<OrderCell>> order_cells(const BoundSelect& query,
                                                  const std::vector<bool>& cell_keys) {
  if (query.order_by.empty() || query.having || query.distinct_outputs ||
      !query.distinct_on.empty()) {
    return std::nullopt;
  }
  std::vector<OrderCell> cells;
  for (const auto& key : query.order_by) {
    const Expr& e = *query.outputs[key.output].expr;
    const bool aggregate = e.kind == ExprKind::AggregateRef;
    if (!aggregate && e.kind != ExprKind::GroupKeyRef) return std::nullopt;
    const auto index = static_cast<size_t>(e.index);
    if (e.type.is_string() || (!aggregate && !cell_keys.at(index))) return std::nullopt;
    cells.push_back({aggregate, index, e.type, key.descending, key.nulls_first});
  }
  return cells;
}

}  // namespace

std::optional<std::vector<uint64_t>> first_groups_in_order(const BoundSelect& query,
                                                           const ResultCells& cells,
                                                           const std::vector<bool>& cell_keys,
                                                           size_t needed) {
  // Below a few times the LIMIT, evaluating every group costs little.
  if (needed >= cells.groups / 8) return std::nullopt;
  const auto order = order_cells(query, cell_keys);
  if (!order) return std::nullopt;
  auto less = [&](size_t a, size_t b) {
    for (const OrderCell& o : *order) {
      const size_t width = o.aggregate ? cells.aggregate_count : cells.key_count;
      const int128* data = o.aggregate ? cells.values : cells.keys;
      const uint8_t* nulls = o.aggregate ? cells.value_nulls : cells.key_nulls;
      const bool x_null = nulls[a * width + o.index] != 0, y_null = nulls[b * width + o.index] != 0;
      if (x_null || y_null) {
        if (x_null && y_null) continue;
        return x_null ? o.nulls_first : !o.nulls_first;
      }
      const Value x = from_cell(data[a * width + o.index], false, o.type);
      const Value y = from_cell(data[b * width + o.index], false, o.type);
      const int c = compare_values(x, y, o.type, nullptr);
      if (c != 0) return o.descending ? c > 0 : c < 0;
    }
    return a < b;
  };
  std::vector<size_t> first = first_in_order(cells.groups, needed, less);
  return std::vector<uint64_t>(first.begin(), first.end());
}

}  // namespace tally
