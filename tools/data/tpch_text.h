// TPC-H comment text (spec 4.2.2.10 and 4.2.2.14): random sentences from the spec's
// grammar and word lists, cut into comments at random offsets.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace tally {

// `count` comments whose lengths are uniform in [min_length, max_length], each a random
// slice of one generated text, as dbgen does. Deterministic for the arguments.
std::vector<std::string> tpch_comments(size_t count, size_t min_length, size_t max_length,
                                       uint64_t seed);

}  // namespace tally
