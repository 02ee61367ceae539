#include "compiler/common/string_heap.h"

#include <mutex>

namespace tally {

int64_t StringHeap::intern(std::string_view s) {
  {
    std::shared_lock lock(mutex_);
    auto it = index_.find(s);
    if (it != index_.end()) return it->second;
  }
  std::unique_lock lock(mutex_);
  auto it = index_.find(s);  // another thread may have added it meanwhile
  if (it != index_.end()) return it->second;
  int64_t id = static_cast<int64_t>(strings_.size());
  strings_.emplace_back(s);
  index_.emplace(std::string_view(strings_.back()), id);
  return id;
}

std::vector<int64_t> StringHeap::intern_all(const std::vector<std::string>& words) {
  std::vector<int64_t> ids;
  ids.reserve(words.size());
  for (const std::string& s : words) ids.push_back(intern(s));
  return ids;
}

}  // namespace tally
