// The on-disk cache of NVRTC-compiled kernels, under the in-memory one of compile_plan.
// It is an optimisation only: every problem (a directory that cannot be created, a full
// disk, a corrupt entry) is reported through the warning callback and the query goes on,
// compiling with NVRTC as if there were no cache. A bad entry is never loaded: it is
// reported, deleted and rebuilt.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "runtime/compile/kernel_cache_dir.h"
#include "runtime/compile/kernel_cache_key.h"
#include "runtime/compile/nvrtc.h"

namespace tally {

inline constexpr uint64_t kDefaultKernelCacheBytes = uint64_t{256} << 20;

// One line, without a trailing newline.
using KernelCacheWarning = std::function<void(const std::string&)>;
void warn_on_stderr(const std::string& message);

struct KernelCacheConfig {
  bool enabled = true;
  fs::path directory;
  uint64_t max_bytes = kDefaultKernelCacheBytes;

  // TALLY_CACHE_DISABLE=1, the directory (see default_kernel_cache_directory) and
  // TALLY_CACHE_MAX_BYTES; an unreadable size is reported and the default used.
  static KernelCacheConfig from_environment(const KernelCacheWarning& warn = warn_on_stderr);
};

struct KernelCacheStats {
  fs::path directory;
  size_t entries = 0;
  uint64_t bytes = 0;
  uint64_t max_bytes = 0;
};

class KernelCache {
 public:
  explicit KernelCache(KernelCacheConfig config, KernelCacheWarning warn = warn_on_stderr);

  bool enabled() const { return config_.enabled; }
  const KernelCacheConfig& config() const { return config_; }

  // The entry for `key`, marked as just used; empty when there is none or it was bad.
  std::optional<cuda::CompiledKernel> load(const KernelCacheKey& key);
  // Whether an entry for `key` exists, without reading it (a bad one is found at load).
  bool contains(const KernelCacheKey& key) const;
  // Stores `kernel` under `key`, then evicts the least recently used entries over the limit.
  void store(const KernelCacheKey& key, const cuda::CompiledKernel& kernel);

  std::vector<KernelCacheFile> files() const;  // oldest use first
  KernelCacheStats stats() const;
  size_t clear();  // removes every entry; returns how many

 private:
  fs::path path_of(const KernelCacheKey& key) const;
  void warn(const std::string& problem) const;

  KernelCacheConfig config_;
  KernelCacheWarning warn_;
};

}  // namespace tally
