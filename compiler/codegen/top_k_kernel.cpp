#include "compiler/codegen/top_k_kernel.h"

#include <fmt/format.h>

#include <optional>
#include <string>
#include <vector>

#include "compiler/codegen/cuda_expr.h"

namespace tally {

namespace {

// One ORDER BY key as the Finalizer's cell it reads.
struct OrderCell {
  bool aggregate = false;
  int index = 0;
  const char* kind = "kOrderI64";
  std::string name;
};

const char* cell_kind(const Type& type) {
  if (type.is_float()) return "kOrderF64";
  if (type.is_decimal()) return "kOrderI128";
  return "kOrderI64";
}

// The cells the ORDER BY reads, or nullopt when one key is not a comparable cell.
std::optional<std::vector<OrderCell>> order_cells(const BoundSelect& query, const GpuPlan& plan) {
  const bool limited = query.limit.has_value() || query.limit_parameter >= 0;
  if (query.order_by.empty() || query.order_by.size() > kDeviceTopKMaxKeys || !limited ||
      query.having || query.distinct_outputs || !query.distinct_on.empty() || plan.emit_states ||
      plan.projection) {
    return std::nullopt;
  }
  std::vector<OrderCell> cells;
  for (const SortKey& key : query.order_by) {
    const OutputColumn& output = query.outputs[static_cast<size_t>(key.output)];
    const Expr& e = *output.expr;
    const bool aggregate = e.kind == ExprKind::AggregateRef;
    if (!aggregate && e.kind != ExprKind::GroupKeyRef) return std::nullopt;
    // The cell's type, which the host decodes it by (runtime/gpu/gpu_engine.cpp from_cell).
    const auto index = static_cast<size_t>(e.index);
    const Type& type =
        aggregate ? query.aggregates.at(index).type : query.group_keys.at(index)->type;
    // Strings are dictionary codes or domain ids in the cells, not in string order.
    if (type.is_string()) return std::nullopt;
    if (!aggregate && plan.keys.at(index).dictionary_column >= 0) return std::nullopt;
    std::string name = output.name;
    // One comment line: no line break, no backslash to continue it onto the code.
    for (char& c : name) c = (c == '\n' || c == '\r' || c == '\\') ? ' ' : c;
    cells.push_back({aggregate, e.index, cell_kind(type), name});
  }
  return cells;
}

}  // namespace

uint32_t top_k_order_flags(const BoundSelect& query) {
  uint32_t flags = 0;
  for (size_t i = 0; i < query.order_by.size() && i < kDeviceTopKMaxKeys; ++i) {
    const SortKey& key = query.order_by[i];
    flags |= (key.descending ? 1u : 0u) << (2 * i);
    flags |= (key.nulls_first ? 2u : 0u) << (2 * i);
  }
  return flags;
}

bool write_top_k_kernel(const BoundSelect& query, const GpuPlan& plan, SourceWriter& w) {
  const auto cells = order_cells(query, plan);
  if (!cells) return false;
  w.line("#include \"tally_top_k.cuh\"");
  w.blank();
  w.line("// The ORDER BY over two groups' result cells, for the device top-k.");
  std::string order = "struct ResultOrder {\n";
  order += "static TALLY_DEV int compare(const ResultCellsRef& cells, u64 a, u64 b) {\n";
  order += "int c = 0;\n";
  for (size_t i = 0; i < cells->size(); ++i) {
    const OrderCell& cell = (*cells)[i];
    const char* side = cell.aggregate ? "value" : "key";
    order += fmt::format(
        "// {}\nif ((c = compare_order_cell<{}>(cells.{}s, cells.{}_nulls, cells.{}_count, {}, a, "
        "b, cells.order_flags >> {}))) return c;\n",
        cell.name, cell.kind, side, side, side, cell.index, 2 * i);
  }
  order += "return 0;\n}\n};";
  w.lines(order);
  w.blank();
  {
    auto k = w.block(kernel_head(kTopKKernelName, 256, 1, static_cast<size_t>(TopKArg::Count)));
    w.line("top_k_kernel<ResultOrder>(arg_block.words);");
  }
  w.blank();
  return true;
}

}  // namespace tally
