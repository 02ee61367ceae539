#include "runtime/compile/kernel_cache.h"

#include <fcntl.h>
#include <fmt/format.h>
#include <unistd.h>

#include <cerrno>
#include <charconv>
#include <cstdlib>
#include <cstring>
#include <iostream>

#include "runtime/compile/kernel_cache_entry.h"

namespace tally {

namespace {

const char* variable(const char* name) {
  const char* value = std::getenv(name);
  return value != nullptr && *value != '\0' ? value : nullptr;
}

std::optional<uint64_t> parse_bytes(std::string_view text) {
  uint64_t value = 0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc() || end != text.data() + text.size()) return std::nullopt;
  return value;
}

// The whole file, or nullopt with `problem` set; a missing file is a plain miss.
std::optional<std::string> read_entry(const fs::path& path, std::string& problem) {
  int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) {
    if (errno != ENOENT) problem = fmt::format("cannot open it: {}", std::strerror(errno));
    return std::nullopt;
  }
  std::string bytes;
  char buffer[1 << 16];
  for (;;) {
    ssize_t n = ::read(fd, buffer, sizeof buffer);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) problem = fmt::format("cannot read it: {}", std::strerror(errno));
    if (n <= 0) break;
    bytes.append(buffer, static_cast<size_t>(n));
  }
  ::close(fd);
  if (!problem.empty()) return std::nullopt;
  return bytes;
}

}  // namespace

void warn_on_stderr(const std::string& message) { std::cerr << "warning: " << message << "\n"; }

KernelCacheConfig KernelCacheConfig::from_environment(const KernelCacheWarning& warn) {
  KernelCacheConfig config;
  const char* disable = variable("TALLY_CACHE_DISABLE");
  config.directory = default_kernel_cache_directory();
  config.enabled = !(disable != nullptr && std::string_view(disable) != "0");
  if (config.enabled && config.directory.empty()) {
    warn("kernel cache: no TALLY_CACHE_DIR, XDG_CACHE_HOME or HOME; running without it");
    config.enabled = false;
  }
  if (const char* max = variable("TALLY_CACHE_MAX_BYTES")) {
    if (auto bytes = parse_bytes(max)) {
      config.max_bytes = *bytes;
    } else {
      warn(fmt::format("kernel cache: TALLY_CACHE_MAX_BYTES={} is not a byte count; using {}", max,
                       kDefaultKernelCacheBytes));
    }
  }
  return config;
}

KernelCache::KernelCache(KernelCacheConfig config, KernelCacheWarning warn)
    : config_(std::move(config)), warn_(std::move(warn)) {}

fs::path KernelCache::path_of(const KernelCacheKey& key) const {
  return config_.directory / (key.hex() + std::string(kKernelEntrySuffix));
}

void KernelCache::warn(const std::string& problem) const { warn_("kernel cache: " + problem); }

std::optional<cuda::CompiledKernel> KernelCache::load(const KernelCacheKey& key) {
  if (!config_.enabled) return std::nullopt;
  fs::path path = path_of(key);
  std::string problem;
  std::optional<std::string> bytes = read_entry(path, problem);
  if (bytes) {
    DecodedKernelEntry entry = decode_kernel_entry(*bytes, key);
    if (entry.kernel) {
      touch_kernel_cache_file(path);
      return std::move(entry.kernel);
    }
    problem = entry.problem;
  }
  if (problem.empty()) return std::nullopt;  // a plain miss
  std::error_code ec;
  fs::remove(path, ec);
  warn(fmt::format("discarded the entry {} ({}){}; compiling again", path.string(), problem,
                   ec ? fmt::format(", and could not delete it: {}", ec.message()) : ""));
  return std::nullopt;
}

bool KernelCache::contains(const KernelCacheKey& key) const {
  std::error_code ec;
  return config_.enabled && fs::exists(path_of(key), ec);
}

void KernelCache::store(const KernelCacheKey& key, const cuda::CompiledKernel& kernel) {
  if (!config_.enabled) return;
  try {
    write_file_atomically(config_.directory, path_of(key).filename().string(),
                          encode_kernel_entry(key, kernel));
    evict_kernel_cache_files(config_.directory, config_.max_bytes);
  } catch (const std::exception& e) {
    warn(fmt::format("{}; the query runs without caching its kernel", e.what()));
  }
}

std::vector<KernelCacheFile> KernelCache::files() const {
  return list_kernel_cache_files(config_.directory);
}

KernelCacheStats KernelCache::stats() const {
  KernelCacheStats stats{config_.directory, 0, 0, config_.max_bytes};
  for (const auto& f : files()) {
    ++stats.entries;
    stats.bytes += f.bytes;
  }
  return stats;
}

size_t KernelCache::clear() {
  size_t removed = 0;
  for (const auto& f : files()) {
    std::error_code ec;
    if (fs::remove(f.path, ec)) ++removed;
  }
  return removed;
}

}  // namespace tally
