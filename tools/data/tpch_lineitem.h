// The built-in TPC-H lineitem generator, so that tally runs with no files at hand.
#pragma once

#include <cstdint>

#include "runtime/storage/table.h"

namespace tally {

// TPC-H lineitem at `scale_factor` (fractions such as 0.01 work), following the value
// rules of TPC-H spec 4.2.3. The same (scale_factor, seed) gives the same table on any
// number of threads; the rows are not byte-identical to dbgen's.
TablePtr generate_lineitem(double scale_factor, uint64_t seed = 0);

// The lineitem schema (all columns NOT NULL).
TableSchema lineitem_schema();

}  // namespace tally
