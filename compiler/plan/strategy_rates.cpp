#include "compiler/plan/strategy_rates.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <sstream>

#include "compiler/common/error.h"

namespace tally {

namespace {

constexpr const char* kHeader = "tally device profile 1";

[[noreturn]] void corrupt(const std::string& where, size_t line, const std::string& what) {
  throw Error(ErrorKind::Cache,
              fmt::format("the device profile {} is damaged at line {}: {} (run `tally "
                          "calibrate` again, or remove the file)",
                          where, line, what));
}

}  // namespace

void StrategyRates::add(const std::string& strategy, uint64_t groups, double rows_per_s) {
  auto& list = points[strategy];
  list.push_back({groups, rows_per_s});
  std::sort(list.begin(), list.end(),
            [](const RatePoint& a, const RatePoint& b) { return a.groups < b.groups; });
}

std::optional<double> StrategyRates::rate(const std::string& strategy, uint64_t groups) const {
  auto it = points.find(strategy);
  if (it == points.end() || it->second.empty()) return std::nullopt;
  const auto& list = it->second;
  const uint64_t g = std::max<uint64_t>(groups, 1);
  if (g < list.front().groups || g > list.back().groups) return std::nullopt;
  for (size_t i = 0; i + 1 < list.size(); ++i) {
    const RatePoint& a = list[i];
    const RatePoint& b = list[i + 1];
    if (g > b.groups) continue;
    if (b.groups == a.groups) return a.rows_per_s;
    const double t =
        (std::log2(static_cast<double>(g)) - std::log2(static_cast<double>(a.groups))) /
        (std::log2(static_cast<double>(b.groups)) - std::log2(static_cast<double>(a.groups)));
    return std::exp2(std::log2(a.rows_per_s) +
                     t * (std::log2(b.rows_per_s) - std::log2(a.rows_per_s)));
  }
  return list.back().rows_per_s;
}

std::string serialize_strategy_rates(const StrategyRates& rates) {
  std::string out = fmt::format("{}\ndevice {}\nrows {}\nread_bytes_per_s {:.6e}\n", kHeader,
                                rates.device, rates.rows, rates.read_bytes_per_s);
  for (const auto& [strategy, list] : rates.points) {
    for (const RatePoint& p : list) {
      out += fmt::format("rate {} {} {:.6e}\n", strategy, p.groups, p.rows_per_s);
    }
  }
  return out;
}

StrategyRates parse_strategy_rates(const std::string& text, const std::string& where) {
  std::istringstream in(text);
  std::string line;
  if (!std::getline(in, line) || line != kHeader) corrupt(where, 1, "no profile header");
  StrategyRates rates;
  size_t number = 1;
  while (std::getline(in, line)) {
    ++number;
    std::istringstream fields(line);
    std::string tag;
    fields >> tag;
    if (tag == "device") {
      rates.device = line.size() > 7 ? line.substr(7) : "";
      continue;
    }
    bool ok = false;
    if (tag == "rows") {
      ok = static_cast<bool>(fields >> rates.rows);
    } else if (tag == "read_bytes_per_s") {
      ok = static_cast<bool>(fields >> rates.read_bytes_per_s);
    } else if (tag == "rate") {
      std::string strategy;
      uint64_t groups = 0;
      double value = 0;
      ok = static_cast<bool>(fields >> strategy >> groups >> value) && groups > 0 &&
           std::isfinite(value) && value > 0;
      if (ok) rates.add(strategy, groups, value);
    }
    std::string rest;
    if (!ok || fields >> rest) corrupt(where, number, fmt::format("\"{}\"", line));
  }
  if (rates.points.empty()) corrupt(where, number, "no measured rates");
  return rates;
}

}  // namespace tally
