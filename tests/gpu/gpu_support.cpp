#include "tests/gpu/gpu_support.h"

#include <doctest/doctest.h>

#include <algorithm>

#include "runtime/cuda/device_refs.h"
#include "runtime/cuda/nvrtc.h"

namespace tally::cuda::test {

Device& test_device() {
  static Device device(0);
  return device;
}

Module compile_test_module(const std::string& kernels, const std::string& name) {
  test_device();  // the context must be current before the module loads
  const std::string source =
      "#include \"tally_types.cuh\"\n"
      "#include \"tally_hash.cuh\"\n"
      "#include \"tally_atomics.cuh\"\n"
      "#include \"tally_table_global.cuh\"\n"
      "#include \"tally_table_direct.cuh\"\n"
      "#include \"tally_table_shared.cuh\"\n"
      "#include \"tally_decode.cuh\"\n"
      "#include \"tally_reduce.cuh\"\n" +
      device_layout_asserts() + "using namespace tally;\n" + kernels;
  CompileOptions options;
  options.arch = test_device().profile().arch();
  const CompiledKernel compiled = compile_cuda(source, name, options);
  MESSAGE(name << ": NVRTC " << compiled.compile_ms << " ms");
  return Module(compiled);
}

uint32_t grid_for(uint64_t rows, uint32_t block) {
  const uint64_t needed = (rows + block - 1) / block;
  const uint64_t cap = static_cast<uint64_t>(test_device().profile().sm_count) * 8;
  return static_cast<uint32_t>(std::clamp<uint64_t>(needed, 1, cap));
}

}  // namespace tally::cuda::test
