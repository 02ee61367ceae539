#include "runtime/compile/nvrtc_stamp.h"

#include <fstream>
#include <string>

#include "runtime/compile/kernel_cache_dir.h"
#include "runtime/compile/nvrtc.h"

namespace tally {

namespace {

constexpr const char* kStampName = "nvrtc-version";

}  // namespace

std::optional<int> read_nvrtc_stamp(const std::filesystem::path& directory) {
  std::ifstream in(directory / kStampName);
  int version = 0;
  std::string rest;
  if (!(in >> version) || version <= 0 || (in >> rest)) return std::nullopt;
  return version;
}

void write_nvrtc_stamp(const std::filesystem::path& directory, int version) noexcept {
  try {
    write_file_atomically(directory, kStampName, std::to_string(version) + "\n");
  } catch (...) {
  }
}

int nvrtc_version_for_cache(const std::filesystem::path& directory) {
  const std::optional<int> stamp = read_nvrtc_stamp(directory);
  if (stamp && !cuda::nvrtc_loaded()) return *stamp;
  const int version = cuda::nvrtc_version();
  if (stamp != version) write_nvrtc_stamp(directory, version);
  return version;
}

}  // namespace tally
