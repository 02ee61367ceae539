// The result check of the GROUP BY sweep (bench/groupby_sweep.cpp): every method's result, brought
// to one form (a count and a sum per group index in [0, K)), is compared with the reference's
// before the method is timed, exactly (both are integers). The reference is the CPU engine's
// result; --cpu checks that one against a plain host loop instead.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "bench/groupby_workload.h"
#include "runtime/result/result.h"

namespace tally::bench {

struct GroupTotals {
  std::vector<uint64_t> counts;  // COUNT(*) of each group index, 0 for groups without rows
  std::vector<int64_t> sums;     // SUM(col2)
};

// The totals straight from the point's keys and values, without any engine.
GroupTotals host_totals(const Point& point, const std::vector<int32_t>& values);

// The totals of a result of the point's query (group keys first, then n and s). Throws
// std::runtime_error when a row's key is outside [0, K) or repeated.
GroupTotals result_totals(const Result& result, const Point& point, KeyKind kind);

struct Reference {
  std::string from;  // "the CPU engine"
  GroupTotals totals;
};

// Empty when `got` equals the reference, else the first group that differs.
std::string compare_totals(const Reference& ref, const GroupTotals& got);

// The groups a packed peer marked inexact, where `got` differs from the reference only there:
// a sum of -1 (col2's values are non-negative) beside the right count, where that peer's word
// could not hold the sum and a query compiler would run the table again unpacked. 0 where any
// group differs otherwise.
size_t marked_inexact(const Reference& ref, const GroupTotals& got);

}  // namespace tally::bench
