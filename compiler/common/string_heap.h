// Interned strings for one execution: the engines hold VARCHAR values as ids into a
// heap, so equality is id equality and each distinct string is stored once. Safe to use
// from the CPU engine's worker threads (expressions such as CAST(x AS VARCHAR) intern new
// strings while other threads read).
#pragma once

#include <cstdint>
#include <deque>
#include <shared_mutex>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace tally {

class StringHeap {
 public:
  int64_t intern(std::string_view s);
  // The ids of `words`, in order: a dictionary code or a domain's index indexes the result.
  std::vector<int64_t> intern_all(const std::vector<std::string>& words);
  const std::string& get(int64_t id) const {
    std::shared_lock lock(mutex_);
    return strings_[static_cast<size_t>(id)];
  }
  // Calls read(get), get(id) giving the string, under one lock: for loops over many ids
  // (a result's export), which would otherwise take the lock a string.
  template <typename Read>
  void read_many(Read read) const {
    std::shared_lock lock(mutex_);
    read([this](int64_t id) -> const std::string& { return strings_[static_cast<size_t>(id)]; });
  }
  size_t size() const {
    std::shared_lock lock(mutex_);
    return strings_.size();
  }

 private:
  mutable std::shared_mutex mutex_;
  std::deque<std::string> strings_;  // deque: stable addresses for the index's views
  std::unordered_map<std::string_view, int64_t> index_;
};

}  // namespace tally
