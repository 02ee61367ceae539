// Group numbers for the rows of a batch, as the GPU's strategies give them: a direct
// (perfect-hash) table where every key has a small known domain (dictionary codes,
// value_bounds ranges), else a linear-probing hash table over the keys' 64-bit words with
// the hashes computed per batch. Each worker has its own; the engine merges them at the end.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "runtime/cpu/vector_batch.h"

namespace tally {

// A key's values lo .. lo + size - 1; a direct slot also has room for NULL.
struct KeyDomain {
  int64_t lo = 0;
  uint64_t size = 0;
};

class GroupIndex {
 public:
  virtual ~GroupIndex() = default;
  // The group number of each row of `sel` (keys are batch columns, one per group key),
  // into gids[row]; new groups are numbered from groups() on.
  virtual void assign(const std::vector<const Vec*>& keys, const Sel& sel, uint32_t* gids) = 0;
  // Group numbers in use are below this.
  virtual size_t groups() const = 0;
  // Whether group g has been assigned a row (direct tables number every possible key).
  virtual bool used(size_t g) const = 0;
  // Key k of group g in the representation `phys`: its I64 or I128 payload or F64 bits.
  virtual bool key_null(size_t g, size_t k) const = 0;
  virtual int128 key_payload(size_t g, size_t k) const = 0;
  // The group number here of group g of `from` (an index made alike), added if new: how
  // the workers' tables merge.
  virtual uint32_t merge_key(const GroupIndex& from, size_t g) = 0;
  // The hash of group g's key (a direct table's slot number): how a merge partitions groups.
  virtual uint64_t group_hash(size_t g) const = 0;
};

// A table numbering every combination of the domains (empty: one group, no keys).
std::unique_ptr<GroupIndex> make_direct_index(std::vector<KeyDomain> domains);

// A hash table for keys of these representations; `nullable` adds a word of NULL flags.
std::unique_ptr<GroupIndex> make_hash_index(std::vector<Phys> keys, bool nullable);

}  // namespace tally
