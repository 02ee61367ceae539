// Host mirrors of the device library's kernel-argument structs (templates/*.cuh), byte for
// byte, so that the tests that launch the device library's pieces directly (tests/gpu/) can
// pass a GlobalTableRef & co. by value to cuLaunchKernel. (Generated kernels take one
// argument block, KernelArgs<N>, which the runtime fills word by word.) Pointers
// are DevicePtr (8 bytes, like a device T*). device_layout_asserts() gives CUDA source that
// checks, at NVRTC time, that both sides agree on every size and alignment (NVRTC has no
// offsetof; the GPU tests compare field offsets at run time).
#pragma once

#include <fmt/format.h>

#include <cstddef>
#include <cstdint>
#include <string>

#include "runtime/cuda/handles.h"
#include "templates/tally_status.cuh"

namespace tally::cuda {

// templates/tally_types.cuh
inline constexpr uint64_t kEmptyKey64 = ~uint64_t{0};
inline constexpr uint32_t kEmptyKey32 = ~uint32_t{0};
using tally::kStatusKeyOutOfRange;  // templates/tally_status.cuh, shared with the device
using tally::kStatusTableFull;

// templates/tally_table_global.cuh: keys has capacity + 1 words (the last is the side
// slot of the key 0xFFFF...FF); status is one u32; group_count one u64 or 0.
struct GlobalTableRef {
  DevicePtr keys = 0;
  uint64_t capacity = 0;
  uint64_t max_probes = 0;
  DevicePtr status = 0;
  DevicePtr group_count = 0;
};

// templates/tally_table_direct.cuh
struct DirectTableRef {
  uint64_t num_slots = 0;
  DevicePtr status = 0;
};

// templates/tally_decode.cuh
struct BitPackedColumn {
  DevicePtr words = 0;  // runtime/gpu/device_layout.h, then padding
  int64_t base = 0;
  uint32_t bits = 0;
};
struct PlainColumn {
  DevicePtr values = 0;
};
struct Validity {
  DevicePtr words = 0;  // 0 when the column has no NULLs
};

// A static_assert (CUDA source) that the device struct `type` has this size and alignment.
inline std::string assert_device_layout(const char* type, size_t size, size_t alignment) {
  return fmt::format(
      "static_assert(sizeof(tally::{0}) == {1} && alignof(tally::{0}) == {2}, \"{0}: host and "
      "device disagree on its layout\");\n",
      type, size, alignment);
}

// static_asserts (CUDA source, after the template includes) that the device structs have
// these mirrors' sizes and alignments.
inline std::string device_layout_asserts() {
  return assert_device_layout("GlobalTableRef", sizeof(GlobalTableRef), alignof(GlobalTableRef)) +
         assert_device_layout("DirectTableRef", sizeof(DirectTableRef), alignof(DirectTableRef)) +
         assert_device_layout("BitPackedColumn", sizeof(BitPackedColumn),
                              alignof(BitPackedColumn)) +
         assert_device_layout("PlainColumn<i64>", sizeof(PlainColumn), alignof(PlainColumn)) +
         assert_device_layout("Validity", sizeof(Validity), alignof(Validity));
}

}  // namespace tally::cuda
