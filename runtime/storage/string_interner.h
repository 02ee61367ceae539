// Distinct strings of a column being built, each with a dense id in first-seen order.
// An open-addressing table over one byte arena: faster than a node-based map for the
// millions of lookups of a COPY or a generator, and safe to copy (it holds offsets, not
// pointers).
#pragma once

#include <cstdint>
#include <string_view>
#include <vector>

namespace tally {

class StringInterner {
 public:
  uint32_t intern(std::string_view s);
  std::string_view get(uint32_t id) const {
    return {bytes_.data() + starts_[id], starts_[id + 1] - starts_[id]};
  }
  size_t size() const { return starts_.size() - 1; }
  // All ids, ordered by their strings (bytewise, as std::string compares).
  std::vector<uint32_t> ids_in_string_order() const;

 private:
  void grow();

  std::vector<char> bytes_;
  std::vector<size_t> starts_ = {0};  // string i is bytes_[starts_[i], starts_[i + 1])
  std::vector<uint64_t> hashes_;      // per id, to re-place ids when the table grows
  // Per slot: the hash's high 32 bits, then id + 1 in the low 32 bits; 0 = empty. The
  // tag rejects most mismatches without touching the strings. Size: a power of two.
  std::vector<uint64_t> slots_;
};

}  // namespace tally
