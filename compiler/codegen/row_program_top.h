// The interpreted tier's ORDER BY ... LIMIT over more groups than the host finishes
// (RowProgram::selects_top): the device keeps only the groups whose first ORDER BY value
// ranks at or before the k-th group's (templates/tally_interp_rank.cuh), which a group key
// or an aggregate whose final orders as one state field (COUNT, SUM, MIN, MAX) allows.
#pragma once

#include <string>
#include <variant>
#include <vector>

#include "compiler/codegen/row_program.h"

namespace tally {

// How the first ORDER BY key of `query` reads a group of `p` (its keys and fields built),
// or the sentence saying why every group would have to reach the host.
std::variant<tally_interp::TopOrder, std::string> top_order(const BoundSelect& query,
                                                            const RowProgram& p,
                                                            const std::vector<ColumnStats>& stats,
                                                            const std::vector<Value>& parameters,
                                                            uint64_t rows);

}  // namespace tally
