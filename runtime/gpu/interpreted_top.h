// A large interpreted result under ORDER BY ... LIMIT (RowProgram::selects_top): after the
// Scan, the device ranks every group by the first ORDER BY key, finds the k-th group's rank
// by a radix select (RankSelect picks each digit from the device's histogram) and copies out
// only the groups ranked at or before it. The host's exact sort of those puts the same k first
// as a sort of every group would.
#pragma once

#include <optional>

#include "runtime/gpu/gpu_engine_impl.h"
#include "runtime/gpu/interpreted_table.h"

namespace tally {

// The groups `p`'s selection keeps of table `t` for the first `needed` rows of the result
// (ordered by group number), or nullopt where ties on the first ORDER BY key keep more groups
// than the host finishes (kInterpretedGroupsMax).
std::optional<InterpretedGroups> download_top_groups(GpuEngine::Impl& engine,
                                                     const InterpretedTableParam& t,
                                                     const tally_interp::Program& program,
                                                     const RowProgram& p, uint64_t needed);

}  // namespace tally
