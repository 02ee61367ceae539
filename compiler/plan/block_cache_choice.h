// Whether a Direct or Hash plan keeps its block cache (compiler/plan/shared_placement.h): the
// cache pays where a block's rows repeat keys, and costs a shared probe a row, a flush a block
// and unpacked fields where they do not. A sample's distinct keys, against what uniform keys
// over the same domain would give, tell the two apart.
#pragma once

#include <cstdint>
#include <string>

#include "compiler/plan/gpu_plan.h"

namespace tally {

// Keys whose sample has fewer distinct values than this share of what uniform keys over the
// domain would give are skewed. Zipf 1.0 keys give 47-63% of it in 8,192 rows at 2^17-2^24
// keys (72-75% in the 1,024 rows of the L2 slices' sample at 2^21-2^24), and a block's cache
// of 1,024 first-come keys takes 33-49% of its rows; uniform and Zipf 0.5 keys give 96-100%,
// and the cache takes 2-4% (a simulation of its two probes over 60,000 rows of a block,
// bench/RESULTS_groupby_sweep.md, session 35).
inline constexpr double kScatteredDistinct = 0.85;

// Distinct values among `n` uniform draws from `d`.
double uniform_distinct(uint64_t n, uint64_t d);

// Whether `distinct` keys among `sampled` rows are as distinct as uniform keys over `domain`.
bool sampled_keys_scattered(uint64_t distinct, uint64_t sampled, uint64_t domain);

// The plan without its block cache; `considered` says why.
GpuPlan without_block_cache(GpuPlan plan, const std::string& why);

// The plan without its block cache where the sample's keys are scattered over `domain` and
// more than the cache holds (its hot keys then hit it); else the plan as it was.
GpuPlan with_sampled_block_cache(GpuPlan plan, uint64_t distinct, uint64_t sampled,
                                 uint64_t domain);

}  // namespace tally
