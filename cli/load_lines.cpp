#include "cli/load_lines.h"

#include <fmt/format.h>

namespace tally::cli {

namespace {

// 2000000 -> "2,000,000"
std::string grouped(uint64_t n) {
  std::string digits = std::to_string(n), out;
  for (size_t i = 0; i < digits.size(); ++i) {
    if (i > 0 && (digits.size() - i) % 3 == 0) out += ',';
    out += digits[i];
  }
  return out;
}

std::string megabytes(uint64_t bytes) { return fmt::format("{:.1f} MB", bytes / 1e6); }

// Two significant figures are enough for a rate, and keep small ones readable.
std::string rate(uint64_t bytes, double seconds) {
  double mb_per_s = seconds > 0 ? bytes / 1e6 / seconds : 0;
  return mb_per_s >= 10 ? fmt::format("{:.0f} MB/s", mb_per_s)
                        : fmt::format("{:.1f} MB/s", mb_per_s);
}

}  // namespace

std::string load_timing_line(const LoadStats& s) {
  std::string bytes = megabytes(s.text_bytes);
  if (s.gzip) bytes += fmt::format(" ({} gzip)", megabytes(s.file_bytes));
  return fmt::format("load: {} row{}, {} in {:.2f} s ({})", grouped(s.rows), s.rows == 1 ? "" : "s",
                     bytes, s.seconds, rate(s.text_bytes, s.seconds));
}

}  // namespace tally::cli
