// The interpreter's table as its kernels take it and its groups as the host finishes them,
// shared by the Scan's run (interpreted_scan.cpp) and the large result's selection
// (interpreted_top.cpp).
#pragma once

#include <cstdint>
#include <vector>

#include "compiler/common/value.h"

namespace tally {

// Host mirror of templates/tally_interp_kernel.cuh's InterpTable.
struct InterpretedTableParam {
  uint64_t keys, capacity, status, cells, slots, distinct_words, distinct_capacity;
};

// The groups that come back: their numbers (RowProgram::keys' mixed-radix numbers) and their
// state cells, group-major.
struct InterpretedGroups {
  std::vector<uint64_t> groups;
  std::vector<int128> cells;
};

}  // namespace tally
