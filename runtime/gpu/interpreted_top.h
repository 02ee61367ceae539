// The groups of an interpreted run over more possible groups than the host finishes
// (RowProgram::large), copied out of the table on the device. Under ORDER BY ... LIMIT
// (RowProgram::selects_top) the device ranks every group by the first ORDER BY key, finds the
// k-th group's rank by a radix select (RankSelect picks each digit from the device's histogram)
// and copies out only the groups ranked at or before it: the host's exact sort of those puts
// the same k first as a sort of every group would. Otherwise every group comes out where the
// run made few enough (a filter over a large domain).
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

// Every group of table `t`, or nullopt where the run made more than the host finishes;
// `made` says how many it made.
std::optional<InterpretedGroups> download_few_groups(GpuEngine::Impl& engine,
                                                     const InterpretedTableParam& t,
                                                     const tally_interp::Program& program,
                                                     const RowProgram& p, uint64_t* made);

}  // namespace tally
