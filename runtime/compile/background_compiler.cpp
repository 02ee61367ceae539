#include "runtime/compile/background_compiler.h"

#include "runtime/compile/gpu_compile.h"

namespace tally {

namespace {

std::string job_key(const std::string& source, const std::string& arch) {
  return arch + "\n" + source;
}

// Compiles a job; false when it failed. Nothing is printed: the statement that asked for it
// has finished, and its next run compiles in the foreground, reporting what goes wrong.
bool compile_job(const std::string& key) {
  const size_t newline = key.find('\n');
  try {
    compile_into_caches(key.substr(newline + 1), key.substr(0, newline), [](const std::string&) {});
    return true;
  } catch (...) {
    return false;
  }
}

}  // namespace

BackgroundCompiler::~BackgroundCompiler() {
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  changed_.notify_all();
  if (thread_.joinable()) thread_.join();
}

bool BackgroundCompiler::enqueue(const std::string& source, const std::string& arch) {
  std::string key = job_key(source, arch);
  {
    std::lock_guard lock(mutex_);
    if (!pending_.insert(key).second) return false;
    failed_.erase(key);
    queue_.push_back(std::move(key));
    if (!thread_.joinable()) thread_ = std::thread([this] { work(); });
  }
  changed_.notify_all();
  return true;
}

bool BackgroundCompiler::failed(const std::string& source, const std::string& arch) const {
  std::lock_guard lock(mutex_);
  return failed_.count(job_key(source, arch)) > 0;
}

void BackgroundCompiler::wait_idle() {
  std::unique_lock lock(mutex_);
  changed_.wait(lock, [this] { return pending_.empty(); });
}

// Takes jobs until the destructor stops it with the queue empty.
void BackgroundCompiler::work() {
  std::unique_lock lock(mutex_);
  for (;;) {
    changed_.wait(lock, [this] { return stopping_ || !queue_.empty(); });
    if (queue_.empty()) return;
    const std::string key = std::move(queue_.front());
    queue_.pop_front();
    lock.unlock();
    const bool compiled = compile_job(key);
    lock.lock();
    pending_.erase(key);
    if (!compiled) failed_.insert(key);
    changed_.notify_all();
  }
}

}  // namespace tally
