// tally cache list|stats|clear: look at and empty the on-disk kernel cache.
#include <fcntl.h>
#include <fmt/format.h>
#include <sys/stat.h>

#include <algorithm>
#include <chrono>
#include <iostream>

#include "cli/commands.h"
#include "runtime/compile/kernel_cache.h"

namespace tally::cli {

namespace {

std::string human_bytes(uint64_t bytes) {
  if (bytes < 1024) return fmt::format("{} B", bytes);
  if (bytes < (1u << 20)) return fmt::format("{:.1f} KiB", bytes / 1024.0);
  return fmt::format("{:.1f} MiB", bytes / double(1u << 20));
}

std::string age_of(fs::file_time_type when) {
  auto seconds =
      std::chrono::duration_cast<std::chrono::seconds>(fs::file_time_type::clock::now() - when)
          .count();
  if (seconds < 120) return fmt::format("{} s ago", std::max<int64_t>(seconds, 0));
  if (seconds < 2 * 3600) return fmt::format("{} min ago", seconds / 60);
  if (seconds < 2 * 86400) return fmt::format("{} h ago", seconds / 3600);
  return fmt::format("{} days ago", seconds / 86400);
}

// An entry's age is that of its file's creation time where the filesystem has one; its
// last use is the mtime, which every hit sets.
std::string created_of(const fs::path& path) {
  struct statx info;
  if (statx(AT_FDCWD, path.c_str(), 0, STATX_BTIME, &info) != 0 || !(info.stx_mask & STATX_BTIME)) {
    return "-";
  }
  auto since_epoch = std::chrono::seconds(info.stx_btime.tv_sec);
  auto created = std::chrono::system_clock::time_point(since_epoch);
  return age_of(fs::file_time_type::clock::from_sys(created));
}

void list(const KernelCache& cache) {
  auto files = cache.files();
  std::cout << fmt::format("{:<16}  {:>10}  {:>14}  {:>14}\n", "key", "size", "created",
                           "last used");
  // Most recently used first, the order a reader wants.
  for (auto it = files.rbegin(); it != files.rend(); ++it) {
    std::cout << fmt::format("{:<16}  {:>10}  {:>14}  {:>14}\n", it->key_hex.substr(0, 16),
                             human_bytes(it->bytes), created_of(it->path), age_of(it->last_used));
  }
  std::cout << fmt::format("{} entr{}\n", files.size(), files.size() == 1 ? "y" : "ies");
}

void stats(const KernelCache& cache) {
  KernelCacheStats s = cache.stats();
  std::cout << fmt::format("directory: {}\n", s.directory.string());
  std::cout << fmt::format("enabled:   {}\n",
                           cache.enabled() ? "yes" : "no (TALLY_CACHE_DISABLE is set)");
  std::cout << fmt::format("entries:   {}\n", s.entries);
  std::cout << fmt::format("size:      {} bytes ({})\n", s.bytes, human_bytes(s.bytes));
  std::cout << fmt::format("limit:     {} bytes ({})\n", s.max_bytes, human_bytes(s.max_bytes));
}

int run_cache_command(const std::string& action) {
  KernelCache cache(KernelCacheConfig::from_environment());
  if (action == "list") list(cache);
  if (action == "stats") stats(cache);
  if (action == "clear") {
    size_t removed = cache.clear();
    std::cout << fmt::format("removed {} entr{} from {}\n", removed, removed == 1 ? "y" : "ies",
                             cache.config().directory.string());
  }
  return 0;
}

}  // namespace

Runner add_cache_command(CLI::App& app) {
  auto action = std::make_shared<std::string>();
  CLI::App* cmd = app.add_subcommand(
      "cache", "Show or clear the on-disk cache of compiled kernels ($TALLY_CACHE_DIR)");
  cmd->add_option("action", *action, "list (the entries), stats (totals) or clear (delete them)")
      ->required()
      ->check(CLI::IsMember({"list", "stats", "clear"}));
  return [action] { return run_cache_command(*action); };
}

}  // namespace tally::cli
