#include "runtime/result/group_table.h"

#include <cstring>

#include "templates/tally_mix.cuh"

namespace tally {

GroupTable::GroupTable(size_t key_bytes) : key_bytes_(key_bytes), slots_(64, 0), mask_(63) {}

uint64_t GroupTable::hash_bytes(const uint8_t* key, size_t n) {
  uint64_t h = 0x9E3779B97F4A7C15ull ^ n;
  size_t i = 0;
  for (; i + 8 <= n; i += 8) {
    uint64_t w;
    std::memcpy(&w, key + i, 8);
    h = (h ^ w) * 0xff51afd7ed558ccdull;
    h ^= h >> 32;
  }
  uint64_t tail = 0;
  std::memcpy(&tail, key + i, n - i);
  // Murmur3's finalizer spreads the bits the slot mask uses.
  return fmix64(h ^ tail);
}

uint32_t GroupTable::find_or_insert(const uint8_t* key) {
  uint64_t h = hash_bytes(key, key_bytes_);
  for (size_t slot = h & mask_;; slot = (slot + 1) & mask_) {
    uint32_t entry = slots_[slot];
    if (entry == 0) {
      uint32_t group = static_cast<uint32_t>(hashes_.size());
      slots_[slot] = group + 1;
      hashes_.push_back(h);
      keys_.insert(keys_.end(), key, key + key_bytes_);
      if (hashes_.size() * 2 > slots_.size()) grow();
      return group;
    }
    uint32_t group = entry - 1;
    if (hashes_[group] == h && std::memcmp(this->key(group), key, key_bytes_) == 0) return group;
  }
}

void GroupTable::grow() {
  std::vector<uint32_t> slots(slots_.size() * 2, 0);
  size_t mask = slots.size() - 1;
  for (size_t g = 0; g < hashes_.size(); ++g) {
    size_t slot = hashes_[g] & mask;
    while (slots[slot] != 0) slot = (slot + 1) & mask;
    slots[slot] = static_cast<uint32_t>(g + 1);
  }
  slots_.swap(slots);
  mask_ = mask;
}

}  // namespace tally
