// The NVRTC version the disk kernel cache keys on, remembered in the cache directory
// (file "nvrtc-version"), so that a fresh process whose statement hits the cache never
// loads NVRTC (6-8 ms on the GPU hosts, 30-50 ms on a 2-core machine). A stale stamp,
// NVRTC having been upgraded since, only finds kernels an older NVRTC compiled from the
// same source; the first miss loads NVRTC, which corrects the stamp.
#pragma once

#include <filesystem>
#include <optional>

namespace tally {

// The version written in `directory`'s stamp, or nullopt when there is none or it is
// unreadable.
std::optional<int> read_nvrtc_stamp(const std::filesystem::path& directory);

// Writes the stamp; failures are ignored (the next process loads NVRTC to learn it).
void write_nvrtc_stamp(const std::filesystem::path& directory, int version) noexcept;

// The version to key on: NVRTC's own when this process has loaded it (correcting the
// stamp), else the stamp's, else NVRTC's (loading it) and stamped. Throws Error(Device)
// when NVRTC is needed and cannot be loaded.
int nvrtc_version_for_cache(const std::filesystem::path& directory);

}  // namespace tally
