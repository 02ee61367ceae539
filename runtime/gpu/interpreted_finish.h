// The host's half of an interpreted run (runtime/gpu/interpreted_scan.h): the groups the
// device made, as their mixed-radix numbers and state cells, finished into the statement's
// result. Without DISTINCT aggregates each group's finals go straight from its cells into the
// outputs, columnar, as the generated kernels' cells do; DISTINCT aggregates take the CPU
// engine's partial states, folded from the device's set.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "compiler/codegen/row_program.h"
#include "runtime/result/result.h"
#include "runtime/storage/table.h"

namespace tally {

// One entry of the DISTINCT set after a run: a value a DISTINCT aggregate saw in a group.
struct DistinctValue {
  uint64_t group;  // RowProgram::keys' mixed-radix number
  uint32_t field;  // the aggregate's first state field (tally_interp::kFieldDistinct)
  int64_t value;   // the argument's register (a string's id in its domain)
};

// The result of an interpreted run from its groups (RowProgram::keys' mixed-radix numbers),
// their state cells (group-major, one a field of the program's layout) and the DISTINCT
// set's entries: what a device run downloads, and what a host run of the same program
// computes (the CPU tests).
Result finish_interpreted(const RowProgram& p, const BoundSelect& query, const Table& table,
                          const std::vector<uint64_t>& groups, std::vector<int128> cells,
                          const std::vector<DistinctValue>& distinct,
                          std::shared_ptr<StringHeap> strings,
                          const std::vector<Value>& parameters);

}  // namespace tally
