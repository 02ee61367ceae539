// The kernel cache's directory: where it is, atomic writes of entries, least-recently-used
// eviction. Several processes may share one directory at once: entries only ever appear by
// rename(2), so a reader sees a whole old file, a whole new one, or none; and every step
// here tolerates another process removing a file under it.
#pragma once

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

namespace tally {

namespace fs = std::filesystem;

// $TALLY_CACHE_DIR, else $XDG_CACHE_HOME/tally, else $HOME/.cache/tally. Empty when none
// of these is set.
fs::path default_kernel_cache_directory();

inline constexpr std::string_view kKernelEntrySuffix = ".tkc";

struct KernelCacheFile {
  fs::path path;
  std::string key_hex;  // the file's name without the suffix
  uint64_t bytes = 0;
  fs::file_time_type last_used;  // the mtime, set on every hit
};

// The entries in `directory`, oldest use first; none when it does not exist.
std::vector<KernelCacheFile> list_kernel_cache_files(const fs::path& directory);

// Writes `bytes` to a temporary file in `directory` (created if needed) and renames it to
// `name`. Throws Error(Cache) on any failure and leaves no temporary file behind.
void write_file_atomically(const fs::path& directory, const std::string& name,
                           std::string_view bytes);

// Marks an entry as just used. Failures are ignored: they only make eviction less exact.
void touch_kernel_cache_file(const fs::path& path) noexcept;

// Removes the least recently used entries until the total is at most `max_bytes`, and
// temporary files that crashed writers left behind. Returns how many entries were removed.
size_t evict_kernel_cache_files(const fs::path& directory, uint64_t max_bytes);

}  // namespace tally
