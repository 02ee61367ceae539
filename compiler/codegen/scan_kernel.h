// The Scan kernel's body: each warp walks the table's 1024-row blocks (the device layout's
// unit, runtime/gpu/device_layout.h), decodes a lane's rows, filters them, finds each row's
// group slot and merges it into the states (state_merges.h). Also the second pass of DOUBLE
// variances, which walks the same way.
#pragma once

#include <string>

#include "compiler/codegen/aggregation_context.h"

namespace tally {

std::string scan_body(AggregationContext& ctx, bool m2_pass);

}  // namespace tally
