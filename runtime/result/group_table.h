// The CPU engine's hash table from fixed-width group keys to dense group numbers (also
// DISTINCT's, in the host finish of either engine's result: result_builder.h): open
// addressing with linear probing over a power-of-two slot array, grown at half full.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace tally {

class GroupTable {
 public:
  explicit GroupTable(size_t key_bytes);

  // The group number of `key` (key_bytes long), inserted if new.
  uint32_t find_or_insert(const uint8_t* key);
  size_t size() const { return hashes_.size(); }
  const uint8_t* key(size_t group) const { return keys_.data() + group * key_bytes_; }

  static uint64_t hash_bytes(const uint8_t* key, size_t n);

 private:
  void grow();

  size_t key_bytes_;
  std::vector<uint8_t> keys_;     // group-major key bytes
  std::vector<uint64_t> hashes_;  // per group, to rehash without rereading keys
  std::vector<uint32_t> slots_;   // group number + 1; 0 = empty
  size_t mask_ = 0;
};

}  // namespace tally
