#include "compiler/common/byte_size.h"

#include <fmt/format.h>

#include <array>
#include <cctype>
#include <charconv>
#include <iterator>
#include <limits>
#include <utility>

#include "compiler/common/error.h"

namespace tally {

std::string format_bytes(uint64_t bytes) {
  constexpr const char* kUnits[] = {"KiB", "MiB", "GiB", "TiB", "PiB"};
  if (bytes < 1024) return fmt::format("{} B", bytes);
  double value = static_cast<double>(bytes) / 1024.0;
  size_t unit = 0;
  while (value >= 1024.0 && unit + 1 < std::size(kUnits)) {
    value /= 1024.0;
    ++unit;
  }
  return fmt::format("{:.1f} {}", value, kUnits[unit]);
}

namespace {

std::string lower(std::string_view text) {
  std::string out;
  for (char c : text) {
    if (!std::isspace(static_cast<unsigned char>(c))) {
      out += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    }
  }
  return out;
}

// The multiplier of a unit, 0 when it is not one.
uint64_t unit_multiplier(const std::string& unit) {
  static const std::array<std::pair<const char*, uint64_t>, 9> kUnits = {{
      {"", 1},
      {"b", 1},
      {"kb", 1000},
      {"mb", 1000 * 1000},
      {"gb", 1000 * 1000 * 1000},
      {"tb", uint64_t{1000} * 1000 * 1000 * 1000},
      {"kib", 1024},
      {"mib", 1024 * 1024},
      {"gib", uint64_t{1} << 30},
  }};
  if (unit == "tib") return uint64_t{1} << 40;
  for (const auto& [name, multiplier] : kUnits) {
    if (unit == name) return multiplier;
  }
  return 0;
}

}  // namespace

uint64_t parse_byte_size(std::string_view text, std::string_view option) {
  auto bad = [&] {
    return Error(ErrorKind::Unsupported,
                 fmt::format("{}: \"{}\" is not a size (write e.g. 512MiB, 2GB or 1073741824)",
                             option, text));
  };
  size_t digits = 0;
  while (digits < text.size() && std::isdigit(static_cast<unsigned char>(text[digits]))) ++digits;
  uint64_t number = 0;
  if (digits == 0 || std::from_chars(text.data(), text.data() + digits, number).ec != std::errc()) {
    throw bad();
  }
  uint64_t multiplier = unit_multiplier(lower(text.substr(digits)));
  if (multiplier == 0) throw bad();
  if (number > std::numeric_limits<uint64_t>::max() / multiplier) throw bad();
  return number * multiplier;
}

}  // namespace tally
