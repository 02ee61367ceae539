#include "runtime/gpu/device_rates_file.h"

#include <fmt/format.h>

#include <cctype>
#include <cstdlib>
#include <fstream>
#include <map>
#include <mutex>
#include <sstream>
#include <system_error>

#include "compiler/common/error.h"
#include "runtime/compile/kernel_cache_dir.h"
#include "runtime/storage/durable_file.h"

namespace tally {

namespace fs = std::filesystem;

std::filesystem::path strategy_rates_path(const std::string& device_name) {
  if (const char* env = std::getenv("TALLY_DEVICE_PROFILE"); env != nullptr && *env != '\0') {
    return std::string(env) == "off" ? fs::path() : fs::path(env);
  }
  const fs::path dir = default_kernel_cache_directory();
  if (dir.empty()) return {};
  std::string name;
  for (char c : device_name) {
    const auto u = static_cast<unsigned char>(c);
    name += std::isalnum(u) ? static_cast<char>(std::tolower(u)) : '-';
  }
  return dir / fmt::format("device-{}.profile", name);
}

std::shared_ptr<const StrategyRates> read_strategy_rates(const fs::path& path) {
  std::error_code ec;
  if (path.empty() || !fs::exists(path, ec)) return nullptr;
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  if (!in && !in.eof()) throw_io_error("cannot read the device profile", path.string());
  return std::make_shared<const StrategyRates>(parse_strategy_rates(text.str(), path.string()));
}

std::shared_ptr<const StrategyRates> device_strategy_rates(const std::string& device_name) {
  static std::mutex mutex;
  static std::map<std::string, std::shared_ptr<const StrategyRates>> loaded;
  const fs::path path = strategy_rates_path(device_name);
  std::lock_guard lock(mutex);
  auto it = loaded.find(path.string());
  if (it != loaded.end()) return it->second;
  auto rates = read_strategy_rates(path);
  loaded.emplace(path.string(), rates);
  return rates;
}

void write_strategy_rates(const fs::path& path, const StrategyRates& rates) {
  std::error_code ec;
  if (path.has_parent_path()) fs::create_directories(path.parent_path(), ec);
  const fs::path temporary = path.string() + ".tmp";
  write_durable_file(temporary.string(), serialize_strategy_rates(rates));
  fs::rename(temporary, path, ec);
  if (ec) {
    fs::remove(temporary, ec);
    throw Error(ErrorKind::Io, fmt::format("cannot write the device profile {}", path.string()));
  }
}

}  // namespace tally
