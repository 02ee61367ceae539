// Runtime compilation of CUDA C++ with NVRTC, loaded with dlopen (libnvrtc.so.13) so the
// tally binary starts where the CUDA toolkit is absent. The device library
// (templates/*.cuh, embedded at build time) is always available to #include.
#pragma once

#include <string>
#include <vector>

#include "compiler/plan/gpu_target.h"

namespace tally::cuda {

struct CompileOptions {
  // "sm_90" compiles to a cubin for that chip; "compute_90" to PTX that the driver
  // finishes at load time (for chips newer than this NVRTC knows).
  std::string arch = default_gpu_target().arch;
  // Fused multiply-add contraction changes the last bits of float arithmetic; off by
  // default so that generated expressions round exactly as the CPU engine does.
  bool fmad = false;
  // NVRTC's -minimal: leaves out texture/surface types and device-side launches, which
  // generated kernels never use, for a faster compile.
  bool minimal = true;
  bool line_info = false;          // -lineinfo, for profilers
  std::vector<std::string> extra;  // passed through verbatim, e.g. "-DTALLY_DEBUG"
};

struct CompiledKernel {
  std::vector<char> image;  // cubin, or NUL-terminated PTX when `is_ptx`
  bool is_ptx = false;
  std::string log;        // NVRTC's warnings (empty when clean)
  double compile_ms = 0;  // wall time of nvrtcCompileProgram and the image retrieval
};

// Compiles `source` (named `name` in messages, e.g. "query_1a2b.cu"). Throws
// Error(Compile) with the NVRTC log and the offending source line on a compile error, and
// Error(Device) when NVRTC itself cannot be loaded.
CompiledKernel compile_cuda(const std::string& source, const std::string& name,
                            const CompileOptions& options = {});

// NVRTC's version as major * 1000 + minor * 10 (13.0 -> 13000, CUDA's convention).
// Throws Error(Device) when NVRTC cannot be loaded.
int nvrtc_version();

// Whether this process has loaded NVRTC (nvrtc_version and compiles do).
bool nvrtc_loaded() noexcept;

// True when libnvrtc can be loaded; never throws.
bool nvrtc_available() noexcept;

// The options string compile_cuda passes to NVRTC for `options`, for --explain and the
// kernel cache key: those of `options`, then any in $TALLY_NVRTC_OPTIONS (space-separated,
// for experiments with NVRTC's options without a rebuild).
std::vector<std::string> nvrtc_arguments(const CompileOptions& options);

}  // namespace tally::cuda
