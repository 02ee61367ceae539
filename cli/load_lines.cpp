#include "cli/load_lines.h"

#include <fmt/format.h>
#include <unistd.h>

#include <cstdlib>
#include <iostream>
#include <mutex>

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

// The progress line shown, if any: its width, to blank it out (no terminal escapes, so
// that a dumb terminal clears it too).
std::mutex progress_mutex;
size_t progress_width = 0;

double progress_delay() {
  const char* text = std::getenv("TALLY_PROGRESS_DELAY");
  return text ? std::strtod(text, nullptr) : 1.0;
}

void show_progress(const LoadProgress& p) {
  static const double delay = progress_delay();
  if (p.seconds < delay) return;
  std::string line = p.file_bytes > 0
                         ? fmt::format("loading: {}% of {}", p.file_bytes_done * 100 / p.file_bytes,
                                       megabytes(p.file_bytes))
                         : fmt::format("loading: {}", megabytes(p.text_bytes));
  line += ", " + rate(p.text_bytes, p.seconds);
  std::lock_guard lock(progress_mutex);
  size_t width = line.size();
  if (width < progress_width) line.append(progress_width - width, ' ');
  progress_width = std::max(width, progress_width);
  std::cerr << "\r" << line << std::flush;
}

}  // namespace

std::function<void(const LoadProgress&)> terminal_progress_line() {
  if (!isatty(STDERR_FILENO)) return {};
  return show_progress;
}

void clear_progress_line() {
  std::lock_guard lock(progress_mutex);
  if (progress_width == 0) return;
  std::cerr << "\r" << std::string(progress_width, ' ') << "\r" << std::flush;
  progress_width = 0;
}

std::string load_timing_line(const LoadStats& s) {
  std::string bytes = megabytes(s.text_bytes);
  if (s.gzip) bytes += fmt::format(" ({} gzip)", megabytes(s.file_bytes));
  return fmt::format("load: {} row{}, {} in {:.2f} s ({})", grouped(s.rows), s.rows == 1 ? "" : "s",
                     bytes, s.seconds, rate(s.text_bytes, s.seconds));
}

}  // namespace tally::cli
