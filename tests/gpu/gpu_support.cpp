#include "tests/gpu/gpu_support.h"

#include <doctest/doctest.h>

#include <algorithm>
#include <map>

#include "runtime/compile/nvrtc.h"
#include "tests/unit/support/device_refs.h"

namespace tally::cuda::test {

Device& test_device() {
  static Device device(0);
  return device;
}

namespace {

Module compile_test_module(const std::string& kernels, const std::string& name) {
  const std::string source =
      "#include \"tally_types.cuh\"\n"
      "#include \"tally_hash.cuh\"\n"
      "#include \"tally_atomics.cuh\"\n"
      "#include \"tally_table_global.cuh\"\n"
      "#include \"tally_table_direct.cuh\"\n"
      "#include \"tally_table_shared.cuh\"\n"
      "#include \"tally_decode.cuh\"\n"
      "#include \"tally_reduce.cuh\"\n"
      "#include \"tally_init_in_scan.cuh\"\n#include \"tally_dependent_launch.cuh\"\n" +
      device_layout_asserts() + "using namespace tally;\n" + kernels;
  CompileOptions options;
  options.arch = test_device().profile().arch();
  const CompiledKernel compiled = compile_cuda(source, name, options);
  MESSAGE(name << ": NVRTC " << compiled.compile_ms << " ms");
  return Module(compiled.image);
}

}  // namespace

Module& test_module(const std::string& kernels, const std::string& name) {
  test_device();  // opened first, so it outlives the modules (statics die in reverse order)
  static std::map<std::string, Module> modules;
  auto it = modules.find(name);
  if (it == modules.end()) it = modules.emplace(name, compile_test_module(kernels, name)).first;
  return it->second;
}

std::vector<std::pair<uint64_t, uint64_t>> occupied_slots(const DeviceBuffer& table_keys) {
  const std::vector<uint64_t> keys = from_device<uint64_t>(table_keys);
  const uint64_t capacity = keys.size() - 1;
  std::vector<std::pair<uint64_t, uint64_t>> slots;
  for (uint64_t slot = 0; slot <= capacity; ++slot) {
    if (keys[slot] == kEmptyKey64) continue;
    slots.emplace_back(slot, slot == capacity ? kEmptyKey64 : keys[slot]);
  }
  return slots;
}

uint32_t grid_for(uint64_t rows, uint32_t block) {
  const uint64_t needed = (rows + block - 1) / block;
  const uint64_t cap = static_cast<uint64_t>(test_device().profile().sm_count) * 8;
  return static_cast<uint32_t>(std::clamp<uint64_t>(needed, 1, cap));
}

}  // namespace tally::cuda::test
