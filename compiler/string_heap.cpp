#include "compiler/string_heap.h"

namespace tally {

int64_t StringHeap::intern(std::string_view s) {
  auto it = index_.find(s);
  if (it != index_.end()) return it->second;
  int64_t id = static_cast<int64_t>(strings_.size());
  strings_.emplace_back(s);
  index_.emplace(std::string_view(strings_.back()), id);
  return id;
}

}  // namespace tally
