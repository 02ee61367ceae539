// Interned strings for one execution: the engines hold VARCHAR values as ids into a
// heap, so equality is id equality and each distinct string is stored once.
#pragma once

#include <cstdint>
#include <deque>
#include <string>
#include <string_view>
#include <unordered_map>

namespace tally {

class StringHeap {
 public:
  int64_t intern(std::string_view s);
  const std::string& get(int64_t id) const { return strings_[static_cast<size_t>(id)]; }
  size_t size() const { return strings_.size(); }

 private:
  std::deque<std::string> strings_;  // deque: stable addresses for the index's views
  std::unordered_map<std::string_view, int64_t> index_;
};

}  // namespace tally
