// ORDER BY ... LIMIT k chosen on the device from the Finalizer's cells (the generated
// tally_top_k kernel, compiler/codegen/top_k_kernel.h): over many groups a sample's k-th
// group first bounds the candidates, then each block's first k and one block's over those;
// only the k chosen groups' cells are downloaded, in ORDER BY order.
#pragma once

#include <cstdint>
#include <memory>

#include "compiler/common/value.h"
#include "runtime/cuda/memory.h"
#include "runtime/cuda/module.h"

namespace tally {

// The Finalizer's output on the device: group g's key i at keys[g * key_count + i], its
// aggregate i at values[g * value_count + i], each with a NULL byte.
struct DeviceResultCells {
  const cuda::DeviceBuffer& keys;
  const cuda::DeviceBuffer& key_nulls;
  const cuda::DeviceBuffer& values;
  const cuda::DeviceBuffer& value_nulls;
  size_t key_count = 0, value_count = 0;
  uint64_t groups = 0;
};

// The chosen groups' cells on the host, row r's at the same places as group g's above.
struct ChosenCells {
  uint64_t count = 0;
  std::unique_ptr<int128[]> keys, values;
  std::unique_ptr<uint8_t[]> key_nulls, value_nulls;
};

// The first min(k, groups) groups in ORDER BY order (ties to the lower group), for
// 1 <= k <= kDeviceTopKMax; `order_flags` from top_k_order_flags of the query as it runs.
ChosenCells device_top_k(cuda::BufferPool& pool, const cuda::Module& module,
                         const DeviceResultCells& cells, uint64_t k, uint32_t order_flags);

}  // namespace tally
