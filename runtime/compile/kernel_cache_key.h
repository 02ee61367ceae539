// The kernel cache's key: a SHA-256 over everything that changes the compiled binary, so
// that an entry is only ever loaded for exactly the compile that produced it.
#pragma once

#include <string>
#include <vector>

#include "runtime/compile/sha256.h"

namespace tally {

struct KernelCacheKeyInputs {
  std::string source;                   // the generated CUDA
  std::vector<std::string> nvrtc_args;  // cuda::nvrtc_arguments(options), -arch included
  std::string arch;                     // "sm_90" (cubin) or "compute_90" (PTX)
  int nvrtc_version = 0;                // cuda::nvrtc_version()
  std::string tally_version = tally_release();
  // The device library the source includes (templates/*.cuh, names and texts), as its
  // SHA-256: a template that changes under an unchanged generated source changes the binary too.
  std::string headers = device_library_digest();

  static std::string tally_release();  // CMake's PROJECT_VERSION
  // The embedded templates, length-prefixed, and their SHA-256 in hex, computed once per
  // process (hashing the 94 KB library for every statement took 0.7 ms on the 2-core machine).
  static std::string device_library();
  static const std::string& device_library_digest();
};

struct KernelCacheKey {
  Sha256Digest digest{};
  std::string hex() const { return to_hex(digest); }
  bool operator==(const KernelCacheKey&) const = default;
};

KernelCacheKey kernel_cache_key(const KernelCacheKeyInputs& inputs);

}  // namespace tally
