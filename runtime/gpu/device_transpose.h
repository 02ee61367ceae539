// The device half of a bit-packed column's upload: the fields cross the bus as the host
// stores them and are lane-transposed in place on the GPU (templates/tally_lane_transpose.cuh)
// rather than on the host's cores, where the transposition ran at 3 GB/s of encoded bytes on
// 16 cores and held every upload of a bit-packed column to that rate (bench/RESULTS.md,
// uploads). Where the kernel cannot be had (neither NVRTC nor a kernel cache has it), or
// $TALLY_HOST_TRANSPOSE=1 asks for it (benchmarks: before against after in one build), the
// host transposes as before.
#pragma once

#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <string>

#include "runtime/cuda/device.h"
#include "runtime/cuda/memory.h"
#include "runtime/cuda/module.h"
#include "runtime/cuda/stream.h"

namespace tally {

class DeviceTranspose {
 public:
  DeviceTranspose();
  ~DeviceTranspose();

  // Whether uploads may leave their fields as stored for transpose(); the first call
  // compiles or loads the kernel on `device` (current on the calling thread). Never throws:
  // a failure is kept in error() and the host transposes. Safe from several threads
  // (GpuEngine::warm_up calls it from its own).
  bool ready(const cuda::Device& device);
  const std::string& error() const { return error_; }

  // Lane-transposes, in place, the first whole blocks of `words`, which hold `rows` fields of
  // `bits` bits (1..64) as Column::packed_words() stores them; returns once they are done.
  void transpose(const cuda::DeviceBuffer& words, uint64_t rows, uint32_t bits) const;

 private:
  struct Loaded;
  bool enabled_;
  bool tried_ = false;
  std::mutex mutex_;
  std::string error_;
  std::unique_ptr<Loaded> loaded_;
};

}  // namespace tally
