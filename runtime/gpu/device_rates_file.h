// Where a GPU's measured strategy rates (compiler/plan/strategy_rates.h) live on disk and
// how they are read and written: one file per GPU model beside the kernel cache, written
// whole or not at all by `tally calibrate`, read once per process.
#pragma once

#include <filesystem>
#include <memory>
#include <string>

#include "compiler/plan/strategy_rates.h"

namespace tally {

// <kernel cache directory>/device-<the GPU's name, lower case, [a-z0-9] and '-'>.profile;
// empty when there is no cache directory. $TALLY_DEVICE_PROFILE names another file, or
// "off" for none.
std::filesystem::path strategy_rates_path(const std::string& device_name);

// The rates in `path`, or null when the file does not exist. Throws Error(Cache) naming
// the file when it is damaged, Error(Io) when it cannot be read.
std::shared_ptr<const StrategyRates> read_strategy_rates(const std::filesystem::path& path);

// The rates for `device_name` (strategy_rates_path), read on first use and kept for the
// process; null when there is no profile.
std::shared_ptr<const StrategyRates> device_strategy_rates(const std::string& device_name);

// Writes the profile atomically (a temporary file, fsync, rename), creating its directory.
void write_strategy_rates(const std::filesystem::path& path, const StrategyRates& rates);

}  // namespace tally
