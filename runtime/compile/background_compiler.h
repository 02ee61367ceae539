// A thread that NVRTC-compiles generated programs into the kernel caches ahead of the
// statements that need them (adaptive compilation: the statement runs on the CPU engine
// meanwhile; runtime/session/adaptive_compile.h). One per Database; the thread starts with
// the first compile asked for.
#pragma once

#include <condition_variable>
#include <deque>
#include <mutex>
#include <set>
#include <string>
#include <thread>

namespace tally {

class BackgroundCompiler {
 public:
  BackgroundCompiler() = default;
  // Finishes every queued compile (so the disk cache keeps them), then joins the thread.
  ~BackgroundCompiler();
  BackgroundCompiler(const BackgroundCompiler&) = delete;
  BackgroundCompiler& operator=(const BackgroundCompiler&) = delete;

  // Queues `source` for `arch`; false when it is queued or compiling already.
  bool enqueue(const std::string& source, const std::string& arch);

  // Whether a background compile of `source` for `arch` failed. Such a failure is dropped
  // silently; the statement then compiles in the foreground, which reports the error.
  bool failed(const std::string& source, const std::string& arch) const;

  // Returns once nothing is queued or compiling.
  void wait_idle();

 private:
  void work();

  mutable std::mutex mutex_;
  std::condition_variable changed_;
  std::deque<std::string> queue_;  // keys: arch, a newline, the source
  std::set<std::string> pending_;  // queued or compiling
  std::set<std::string> failed_;
  bool stopping_ = false;
  std::thread thread_;
};

}  // namespace tally
