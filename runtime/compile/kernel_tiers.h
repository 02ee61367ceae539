// Tiered compilation of a statement's kernels. A Scan that unrolls its rows in chunks
// (compiler/codegen/scan_kernel.cpp) costs NVRTC up to 8x what the same Scan reading its rows one
// at a time does (GpuPlan::quick_scan), and runs 1.5-3x faster (bench/RESULTS.md, "kernel
// tiers"). So a new statement can run at once on the quick kernels while the unrolled ones
// compile in the background for its later runs, as adaptive query engines do.
#pragma once

#include <string>
#include <vector>

#include "runtime/compile/background_compiler.h"
#include "runtime/compile/gpu_compile.h"

namespace tally {

enum class KernelTiers {
  Unrolled,    // the kernels the plan asks for, compiled before the run when no cache has them
  QuickFirst,  // where no cache has those: the quick Scan's now, the unrolled ones compiled
               // in the background and taken by a later run
  QuickOnly,   // always the quick Scan's (tests of that code)
};

struct KernelTierChoice {
  KernelTiers tiers = KernelTiers::Unrolled;
  BackgroundCompiler* compiler = nullptr;  // QuickFirst's; without one QuickFirst is Unrolled
};

// compile_plan under `choice`, with a prepared statement's plan cache (`plans`, may be null).
// A plan-cache entry of quick kernels is replaced by the unrolled ones once they have compiled.
GpuCompilation compile_in_tiers(const BoundSelect& query, const std::vector<ColumnStats>& stats,
                                const GpuPlan& plan, const std::string& arch, GpuPlanCache* plans,
                                const KernelTierChoice& choice);

}  // namespace tally
