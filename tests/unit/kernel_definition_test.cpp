// The generated kernels' signature: one by-value argument block, sized to the program.
#include <doctest/doctest.h>

#include "compiler/codegen/cuda_expr.h"
#include "compiler/common/error.h"

namespace tally {

TEST_CASE("kernel definition: the argument block travels by value, sized to the program") {
  std::string k = kernel_definition("tally_scan", 128, 8, 17, "  body();\n");
  CHECK(k.find("__launch_bounds__(128, 8) tally_scan(const __grid_constant__ KernelArgs<17> "
               "arg_block)") != std::string::npos);
  CHECK(k.find("const u64* __restrict__ args = arg_block.words;") != std::string::npos);
  CHECK(k.find("  body();\n}") != std::string::npos);
}

TEST_CASE("kernel definition: more arguments than a 4 KB parameter block is a clear error") {
  CHECK_NOTHROW(kernel_definition("k", 256, 1, 512, ""));
  try {
    kernel_definition("k", 256, 1, 513, "");
    FAIL("513 arguments were accepted");
  } catch (const Error& e) {
    CHECK(e.kind() == ErrorKind::Unsupported);
    CHECK(std::string(e.what()).find("513 arguments") != std::string::npos);
  }
}

}  // namespace tally
