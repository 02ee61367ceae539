#include "compiler/codegen/lane_transpose_kernel.h"

#include <fmt/format.h>

namespace tally {

std::string lane_transpose_source() {
  return fmt::format(
      "#include \"tally_lane_transpose.cuh\"\n"
      "\n"
      "extern \"C\" __global__ void __launch_bounds__({threads})\n"
      "{name}(u32* words, u64 rows, u32 bits) {{\n"
      "  tally::lane_transpose(words, rows, bits);\n"
      "}}\n",
      fmt::arg("threads", kLaneTransposeThreads), fmt::arg("name", kLaneTransposeKernelName));
}

}  // namespace tally
