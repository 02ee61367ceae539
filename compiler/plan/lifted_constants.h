// Constants a WHERE clause compares with, as parameters of the GPU's program: two statements
// that differ only in them (another date range, another threshold) generate the same CUDA,
// so the second finds the first's kernels in the kernel caches instead of waiting for NVRTC.
// The plan still sees the values (they are known parameters), so it is what the constants
// would have given.
#pragma once

#include <memory>
#include <vector>

#include "compiler/common/value.h"
#include "compiler/ir/query.h"

namespace tally {

struct LiftedConstants {
  BoundSelect query;          // each lifted constant a parameter after the statement's own
  std::vector<Value> values;  // the lifted constants, in parameter order
};

// Integer, DATE and TIMESTAMP constants compared with a non-constant in the filter (DECIMAL
// ones stay: as a parameter a DECIMAL is read in 128 bits, and its comparison with it);
// null when there is none.
std::shared_ptr<const LiftedConstants> lift_compared_constants(const BoundSelect& query);

// The parameter values a plan of the lifted query takes: `own`, the statement's `?` values,
// then the lifted constants' (`lifted` may be null: `own` alone). Empty where `own` does not
// hold a value for each of the statement's `?` (a compile ahead without them): the plan then
// assumes no value at all. Runs and compiles ahead share it, so they plan alike.
std::vector<Value> lifted_parameters(const BoundSelect& query, std::vector<Value> own,
                                     const LiftedConstants* lifted);

}  // namespace tally
