#include "runtime/compile/kernel_cache_dir.h"

#include <fcntl.h>
#include <fmt/format.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <cstring>

#include "compiler/common/error.h"

namespace tally {

namespace {

constexpr std::string_view kTempPrefix = ".tmp-";
// A temporary file older than this belongs to a writer that died; a live writer takes
// milliseconds.
constexpr auto kStaleTempAge = std::chrono::hours(1);

fs::path from_variable(const char* name, const char* below = "") {
  const char* value = std::getenv(name);
  if (value == nullptr || *value == '\0') return {};
  return *below == '\0' ? fs::path(value) : fs::path(value) / below;
}

Error cache_error(const std::string& what, const fs::path& path) {
  return Error(ErrorKind::Cache,
               fmt::format("{} {}: {}", what, path.string(), std::strerror(errno)));
}

void write_all(int fd, std::string_view bytes, const fs::path& path) {
  while (!bytes.empty()) {
    ssize_t written = ::write(fd, bytes.data(), bytes.size());
    if (written < 0 && errno == EINTR) continue;
    if (written <= 0) throw cache_error("cannot write", path);
    bytes.remove_prefix(static_cast<size_t>(written));
  }
}

void remove_stale_temp_files(const fs::path& directory) {
  std::error_code ec;
  auto now = fs::file_time_type::clock::now();
  for (const auto& item : fs::directory_iterator(directory, ec)) {
    std::string name = item.path().filename().string();
    if (!name.starts_with(kTempPrefix)) continue;
    std::error_code ignored;
    auto written = fs::last_write_time(item.path(), ignored);
    if (!ignored && now - written > kStaleTempAge) fs::remove(item.path(), ignored);
  }
}

}  // namespace

fs::path default_kernel_cache_directory() {
  if (fs::path p = from_variable("TALLY_CACHE_DIR"); !p.empty()) return p;
  if (fs::path p = from_variable("XDG_CACHE_HOME", "tally"); !p.empty()) return p;
  if (fs::path p = from_variable("HOME", ".cache/tally"); !p.empty()) return p;
  return {};
}

std::vector<KernelCacheFile> list_kernel_cache_files(const fs::path& directory) {
  std::vector<KernelCacheFile> files;
  std::error_code ec;
  for (const auto& item : fs::directory_iterator(directory, ec)) {
    const fs::path& path = item.path();
    if (path.extension() != kKernelEntrySuffix) continue;
    // Another process may evict the file between listing and stat: skip it then.
    std::error_code gone;
    KernelCacheFile file{path, path.stem().string(), fs::file_size(path, gone),
                         fs::last_write_time(path, gone)};
    if (!gone) files.push_back(std::move(file));
  }
  std::sort(files.begin(), files.end(), [](const auto& a, const auto& b) {
    return a.last_used != b.last_used ? a.last_used < b.last_used : a.key_hex < b.key_hex;
  });
  return files;
}

void write_file_atomically(const fs::path& directory, const std::string& name,
                           std::string_view bytes) {
  std::error_code ec;
  fs::create_directories(directory, ec);
  if (ec) {
    throw Error(ErrorKind::Cache, fmt::format("cannot create the directory {}: {}",
                                              directory.string(), ec.message()));
  }
  // mkstemp gives each writer its own temporary name, so two processes storing the same
  // key both succeed; the last rename wins with an identical file.
  std::string temp = (directory / (std::string(kTempPrefix) + name + ".XXXXXX")).string();
  int fd = ::mkstemp(temp.data());
  if (fd < 0) throw cache_error("cannot create a file in", directory);
  try {
    write_all(fd, bytes, temp);
    if (::fchmod(fd, 0644) != 0) throw cache_error("cannot set the mode of", temp);
    if (::close(fd) != 0) {
      fd = -1;
      throw cache_error("cannot write", temp);
    }
    fd = -1;
    if (::rename(temp.c_str(), (directory / name).c_str()) != 0) {
      throw cache_error("cannot rename into place", directory / name);
    }
  } catch (...) {
    if (fd >= 0) ::close(fd);
    ::unlink(temp.c_str());
    throw;
  }
}

void touch_kernel_cache_file(const fs::path& path) noexcept {
  ::utimensat(AT_FDCWD, path.c_str(), nullptr, 0);
}

size_t evict_kernel_cache_files(const fs::path& directory, uint64_t max_bytes) {
  remove_stale_temp_files(directory);
  std::vector<KernelCacheFile> files = list_kernel_cache_files(directory);
  uint64_t total = 0;
  for (const auto& f : files) total += f.bytes;
  size_t removed = 0;
  for (const auto& f : files) {
    if (total <= max_bytes) break;
    std::error_code ignored;  // already gone: another process evicted it
    fs::remove(f.path, ignored);
    total -= f.bytes;
    ++removed;
  }
  return removed;
}

}  // namespace tally
