// A load's meter: the parsing threads tell it the bytes they parse; it answers whether the
// load was cancelled and passes the progress on, a few times a second at most.
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <mutex>

#include "runtime/load/load_report.h"

namespace tally {

class LoadMeter {
 public:
  LoadMeter(const LoadControl& control, uint64_t file_bytes);

  // Parsers call advance() after about this many bytes, so that a cancel takes effect
  // within a few MB and the progress line moves smoothly.
  static constexpr uint64_t kStep = uint64_t{1} << 20;

  // `text_bytes` more were parsed; false when the load is to stop. Any thread.
  bool advance(uint64_t text_bytes);
  bool cancelled() const { return control_.cancelled && control_.cancelled(); }
  // For gzip: how many file bytes the text read so far came from, so that progress is
  // told in file bytes (the file's size is what the percentage is of).
  void set_file_bytes_read(uint64_t file_bytes_read, uint64_t text_bytes_read);
  double seconds() const;

 private:
  void report(uint64_t text_done);

  const LoadControl& control_;
  const uint64_t file_bytes_;
  const std::chrono::steady_clock::time_point start_ = std::chrono::steady_clock::now();
  std::atomic<uint64_t> text_done_{0};
  // file bytes per text byte, as 1/65536ths: 65536 for a plain file
  std::atomic<uint64_t> file_per_text_{65536};
  std::atomic<int64_t> next_report_ns_{0};
  std::mutex report_mutex_;  // one progress call at a time
};

}  // namespace tally
