// What the planner knows of a scan column, from the runtime's column statistics: exact for
// the data a plan is made for (they are part of a compiled plan's fingerprint).
#pragma once

#include <cstddef>
#include <cstdint>

#include "compiler/common/value.h"

namespace tally {

struct ColumnStats {
  bool has_range = false;  // min/max known (integer-like payloads, dictionary codes)
  int64_t min = 0;
  int64_t max = 0;
  // HUGEINT, wide DECIMAL and INTERVAL columns: the exact range of the non-NULL values (min
  // and max saturate at the int64 range; has_range is false), valid when has_values.
  int128 wide_min = 0;
  int128 wide_max = 0;
  bool has_nulls = false;
  bool has_values = true;      // at least one non-NULL value
  size_t dictionary_size = 0;  // VARCHAR columns
  // Physical encoding, for the decoder the generated Scan instantiates.
  enum class Layout { Plain, BitPacked } layout = Layout::Plain;
  int bits = 0;         // BitPacked
  int64_t base = 0;     // BitPacked
  int plain_width = 0;  // Plain: bytes per value

  bool operator==(const ColumnStats&) const = default;
};

}  // namespace tally
