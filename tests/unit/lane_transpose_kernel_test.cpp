// compiler/codegen/lane_transpose_kernel.h: the upload's transposition kernel compiles for the
// default target without a warning and exports its kernel by name (the GPU test
// tests/gpu/pinned_staging_test.cpp runs it against the host's transposition).
#include "compiler/codegen/lane_transpose_kernel.h"

#include <doctest/doctest.h>

#include "runtime/compile/nvrtc.h"

namespace tally {
namespace {

TEST_CASE("lane transpose kernel: the program compiles cleanly for the default target") {
  const std::string source = lane_transpose_source();
  CHECK(source.find(std::string("void __launch_bounds__(") + std::to_string(kLaneTransposeThreads) +
                    ")") != std::string::npos);
  CHECK(source.find(kLaneTransposeKernelName) != std::string::npos);
  if (!cuda::nvrtc_available()) return;
  const cuda::CompiledKernel binary = cuda::compile_cuda(source, "lane_transpose.cu");
  CHECK(!binary.image.empty());
  CHECK(binary.log.empty());
}

}  // namespace
}  // namespace tally
