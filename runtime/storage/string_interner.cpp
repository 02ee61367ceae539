#include "runtime/storage/string_interner.h"

#include <algorithm>
#include <cstring>

#include "compiler/common/hash_bytes.h"

namespace tally {

uint32_t StringInterner::intern(std::string_view s) {
  if ((size() + 1) * 2 > slots_.size()) grow();
  uint64_t hash = hash_bytes(s);
  size_t mask = slots_.size() - 1;
  uint64_t tag = hash & ~uint64_t{0xffffffff};
  for (size_t slot = hash & mask;; slot = (slot + 1) & mask) {
    uint64_t entry = slots_[slot];
    if (entry == 0) {
      uint32_t id = static_cast<uint32_t>(size());
      slots_[slot] = tag | (id + 1);
      hashes_.push_back(hash);
      bytes_.insert(bytes_.end(), s.begin(), s.end());
      starts_.push_back(bytes_.size());
      return id;
    }
    uint32_t id = static_cast<uint32_t>(entry) - 1;
    if ((entry & ~uint64_t{0xffffffff}) == tag && get(id) == s) return id;
  }
}

// Sorting on the first 8 bytes as a big-endian integer settles most comparisons without
// touching the strings; equal prefixes fall back to comparing the whole strings.
std::vector<uint32_t> StringInterner::ids_in_string_order() const {
  struct Key {
    uint64_t prefix;
    uint32_t id;
  };
  std::vector<Key> keys(size());
  for (uint32_t id = 0; id < keys.size(); ++id) {
    std::string_view s = get(id);
    unsigned char bytes[8] = {};
    std::memcpy(bytes, s.data(), std::min<size_t>(8, s.size()));
    uint64_t prefix = 0;
    for (unsigned char b : bytes) prefix = (prefix << 8) | b;
    keys[id] = {prefix, id};
  }
  std::sort(keys.begin(), keys.end(), [this](const Key& a, const Key& b) {
    if (a.prefix != b.prefix) return a.prefix < b.prefix;
    return get(a.id) < get(b.id);
  });
  std::vector<uint32_t> ids(keys.size());
  for (size_t i = 0; i < keys.size(); ++i) ids[i] = keys[i].id;
  return ids;
}

// Doubles the table (at most half full, so probes stay short) and re-places every id.
void StringInterner::grow() {
  std::vector<uint64_t> slots(slots_.empty() ? 16 : slots_.size() * 2, 0);
  size_t mask = slots.size() - 1;
  for (uint32_t id = 0; id < size(); ++id) {
    size_t slot = hashes_[id] & mask;
    while (slots[slot] != 0) slot = (slot + 1) & mask;
    slots[slot] = (hashes_[id] & ~uint64_t{0xffffffff}) | (id + 1);
  }
  slots_ = std::move(slots);
}

}  // namespace tally
