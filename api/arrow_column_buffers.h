// A result's columns as Arrow lays out their buffers (validity bitmap, values or offsets,
// characters), filled straight from the result's cells on all cores. api/arrow_export.cpp
// wraps them in the C Data Interface's structs.
#pragma once

#include <cstdint>
#include <vector>

#include "runtime/result/result.h"

namespace tally {

// Allocated unwritten: every byte of a buffer is written by the fill, once.
using ArrowBuffer = CellVector<uint8_t>;

struct ArrowColumnBuffers {
  // The null layout has none; strings: validity, offsets, characters; other types:
  // validity, values. The validity buffer is empty where no value is NULL.
  std::vector<ArrowBuffer> buffers;
  int64_t null_count = 0;
};

// Every column of `result`; NULL slots hold zeros (and empty strings). Throws
// Error(Unsupported) for an INTERVAL past 2^63 nanoseconds or over 2 GiB of strings in a
// column.
std::vector<ArrowColumnBuffers> arrow_column_buffers(const Result& result);

}  // namespace tally
