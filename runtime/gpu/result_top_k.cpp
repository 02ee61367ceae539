#include "runtime/gpu/result_top_k.h"

#include "compiler/common/value_ops.h"
#include "compiler/plan/result_order.h"
#include "runtime/gpu/gpu_engine_impl.h"
#include "runtime/result/row_sort.h"

namespace tally {

std::optional<std::vector<uint64_t>> first_groups_in_order(const BoundSelect& query,
                                                           const GpuPlan& plan,
                                                           const ResultCells& cells,
                                                           size_t needed) {
  // Below a few times the LIMIT, evaluating every group costs little.
  if (needed >= cells.groups / 8) return std::nullopt;
  const auto order = result_order_cells(query, plan);
  if (!order) return std::nullopt;
  auto less = [&](size_t a, size_t b) {
    for (size_t i = 0; i < order->size(); ++i) {
      const OrderCell& o = (*order)[i];
      const SortKey& key = query.order_by[i];
      const size_t width = o.aggregate ? cells.aggregate_count : cells.key_count;
      const int128* data = o.aggregate ? cells.values : cells.keys;
      const uint8_t* nulls = o.aggregate ? cells.value_nulls : cells.key_nulls;
      const bool x_null = nulls[a * width + o.index] != 0, y_null = nulls[b * width + o.index] != 0;
      if (x_null || y_null) {
        if (x_null && y_null) continue;
        return x_null ? key.nulls_first : !key.nulls_first;
      }
      const Value x = from_cell(data[a * width + o.index], false, o.type);
      const Value y = from_cell(data[b * width + o.index], false, o.type);
      const int c = compare_values(x, y, o.type, nullptr);
      if (c != 0) return key.descending ? c > 0 : c < 0;
    }
    return a < b;
  };
  std::vector<size_t> first = first_in_order(cells.groups, needed, less);
  return std::vector<uint64_t>(first.begin(), first.end());
}

}  // namespace tally
