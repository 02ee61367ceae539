#include "compiler/codegen/top_k_kernel.h"

#include <fmt/format.h>

#include <string>
#include <vector>

#include "compiler/codegen/cuda_expr.h"
#include "compiler/plan/result_order.h"

namespace tally {

namespace {

const char* cell_kind(const Type& type) {
  if (type.is_float()) return "kOrderF64";
  if (type.is_exact128()) return "kOrderI128";
  return "kOrderI64";
}

// An output's name for a one-line comment: no line break, no backslash to continue it onto
// the code.
std::string comment_text(std::string name) {
  for (char& c : name) c = (c == '\n' || c == '\r' || c == '\\') ? ' ' : c;
  return name;
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
  const bool limited = query.limit.has_value() || query.limit_parameter >= 0;
  if (!limited || query.order_by.size() > kDeviceTopKMaxKeys || plan.emit_states ||
      plan.projection) {
    return false;
  }
  const auto cells = result_order_cells(query, plan);
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
    const std::string& name = query.outputs[static_cast<size_t>(query.order_by[i].output)].name;
    order += fmt::format(
        "// {}\nif ((c = compare_order_cell<{}>(cells.{}s, cells.{}_nulls, cells.{}_count, {}, a, "
        "b, cells.order_flags >> {}))) return c;\n",
        comment_text(name), cell_kind(cell.type), side, side, side, cell.index, 2 * i);
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
