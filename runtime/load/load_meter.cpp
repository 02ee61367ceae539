#include "runtime/load/load_meter.h"

#include <algorithm>

namespace tally {

namespace {

constexpr int64_t kReportEveryNs = 100'000'000;

}  // namespace

LoadMeter::LoadMeter(const LoadControl& control, uint64_t file_bytes)
    : control_(control), file_bytes_(file_bytes) {}

double LoadMeter::seconds() const {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
}

void LoadMeter::set_file_bytes_read(uint64_t file_bytes_read, uint64_t text_bytes_read) {
  if (text_bytes_read == 0) return;
  file_per_text_ = (static_cast<unsigned __int128>(file_bytes_read) << 16) / text_bytes_read;
}

bool LoadMeter::advance(uint64_t text_bytes) {
  uint64_t done = text_done_ += text_bytes;
  if (control_.progress && text_bytes > 0) report(done);
  return !cancelled();
}

void LoadMeter::report(uint64_t text_done) {
  int64_t now = std::chrono::duration_cast<std::chrono::nanoseconds>(
                    std::chrono::steady_clock::now() - start_)
                    .count();
  // A thread that finds another one reporting skips its turn rather than wait.
  if (now < next_report_ns_.load() || !report_mutex_.try_lock()) return;
  std::lock_guard lock(report_mutex_, std::adopt_lock);
  next_report_ns_ = now + kReportEveryNs;
  LoadProgress progress;
  progress.text_bytes = text_done;
  uint64_t file_done = static_cast<uint64_t>(
      (static_cast<unsigned __int128>(text_done) * file_per_text_.load()) >> 16);
  progress.file_bytes_done = file_bytes_ ? std::min(file_done, file_bytes_) : file_done;
  progress.file_bytes = file_bytes_;
  progress.seconds = static_cast<double>(now) / 1e9;
  control_.progress(progress);
}

}  // namespace tally
