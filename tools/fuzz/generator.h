// The grammar-aware statement generator: random SELECTs over the fuzz schema
// (tools/fuzz/schema.h) in the shapes tally runs: grouped and global aggregates (column,
// computed, ordinal and alias keys), projections, SELECT DISTINCT and statements without
// FROM, with WHERE, HAVING, ORDER BY and LIMIT/OFFSET.
#pragma once

#include <cstdint>
#include <string>

namespace tally::fuzz {

// Statement `index` of the stream for `seed`: a pure function of both, so a child process
// restarted after a crash, or a replay, regenerates exactly the same text.
std::string generate_statement(uint64_t seed, uint64_t index);

}  // namespace tally::fuzz
