#include "runtime/cpu/vector_groups.h"

#include <bit>
#include <cmath>
#include <cstring>

#include "compiler/common/error.h"
#include "templates/tally_mix.cuh"

namespace tally {

namespace {

class DirectIndex : public GroupIndex {
 public:
  explicit DirectIndex(std::vector<KeyDomain> domains) : domains_(std::move(domains)) {
    size_t slots = 1;
    for (const KeyDomain& d : domains_) {
      strides_.push_back(slots);
      slots *= d.size + 1;  // digit 0 is NULL
    }
    used_.assign(slots, 0);
  }

  void assign(const std::vector<const Vec*>& keys, const Sel& sel, uint32_t* gids) override {
    if (keys.empty()) {
      for_rows(sel, [&](uint32_t r) { gids[r] = 0; });
    }
    bool outside = false;
    for (size_t k = 0; k < keys.size(); ++k) outside |= add_digits(*keys[k], k, sel, gids);
    // A value outside its proven domain would land in another group: never a wrong answer.
    if (outside) throw Error(ErrorKind::Internal, "a group key left the domain planned for it");
    uint8_t* used = used_.data();
    for_rows(sel, [&](uint32_t r) { used[gids[r]] = 1; });
  }

  size_t groups() const override { return used_.size(); }
  bool used(size_t g) const override { return used_[g] != 0; }
  bool key_null(size_t g, size_t k) const override { return digit(g, k) == 0; }
  int128 key_payload(size_t g, size_t k) const override {
    return domains_[k].lo + static_cast<int64_t>(digit(g, k)) - 1;
  }
  uint32_t merge_key(const GroupIndex&, size_t g) override {
    used_[g] = 1;  // every direct table numbers the keys alike
    return static_cast<uint32_t>(g);
  }
  uint64_t group_hash(size_t g) const override { return g; }

 private:
  // Adds key k's digit times its stride to each row's slot; true if a value is outside.
  bool add_digits(const Vec& key, size_t k, const Sel& sel, uint32_t* gids) const {
    const int64_t* v = key.i.data();
    const uint8_t* null = key.null.data();
    const auto stride = static_cast<uint32_t>(strides_[k]);
    const auto base = static_cast<uint64_t>(domains_[k].lo - 1);  // value lo is digit 1
    const uint64_t size = domains_[k].size;
    const bool nulls = key.has_nulls;
    bool outside = false;
    for_rows(sel, [&](uint32_t r) {
      const bool is_null = nulls && null[r];
      const uint64_t d = is_null ? 0 : static_cast<uint64_t>(v[r]) - base;
      outside |= !is_null && (d - 1 >= size);
      const uint32_t part = static_cast<uint32_t>(d) * stride;
      gids[r] = k == 0 ? part : gids[r] + part;
    });
    return outside;
  }

  uint64_t digit(size_t g, size_t k) const { return (g / strides_[k]) % (domains_[k].size + 1); }

  std::vector<KeyDomain> domains_;
  std::vector<size_t> strides_;
  std::vector<uint8_t> used_;
};

// One group per distinct key: 0.0 and -0.0 one key, every NaN one key (encode_group_key).
inline uint64_t double_word(double f) {
  if (f == 0.0) f = 0.0;
  if (std::isnan(f)) f = std::nan("");
  return std::bit_cast<uint64_t>(f);
}

class HashIndex : public GroupIndex {
 public:
  HashIndex(std::vector<Phys> keys, bool nullable) : phys_(std::move(keys)), nullable_(nullable) {
    for (Phys p : phys_) {
      offsets_.push_back(width_);
      width_ += p == Phys::I128 ? 2 : 1;
    }
    if (nullable_) width_ += 1;
    row_keys_.resize(kBatchRows * width_);
    hashes_in_.resize(kBatchRows);
    slots_.assign(1024, 0);
  }

  void assign(const std::vector<const Vec*>& keys, const Sel& sel, uint32_t* gids) override {
    gather(keys, sel);
    for_rows(sel,
             [&](uint32_t r) { gids[r] = find_or_insert(&row_keys_[r * width_], hashes_in_[r]); });
  }

  size_t groups() const override { return hashes_.size(); }
  bool used(size_t) const override { return true; }
  bool key_null(size_t g, size_t k) const override {
    return nullable_ && ((keys_[g * width_ + width_ - 1] >> k) & 1);
  }
  int128 key_payload(size_t g, size_t k) const override {
    const uint64_t* w = &keys_[g * width_ + offsets_[k]];
    if (phys_[k] != Phys::I128) return static_cast<int64_t>(w[0]);
    return static_cast<int128>((static_cast<unsigned __int128>(w[1]) << 64) | w[0]);
  }
  uint32_t merge_key(const GroupIndex& from, size_t g) override {
    const auto& other = static_cast<const HashIndex&>(from);
    return find_or_insert(&other.keys_[g * width_], other.hashes_[g]);
  }
  uint64_t group_hash(size_t g) const override { return hashes_[g]; }

 private:
  // Each row's key words (NULL keys as 0 with their flag set) and hash.
  void gather(const std::vector<const Vec*>& keys, const Sel& sel) {
    uint64_t* out = row_keys_.data();
    const size_t width = width_;
    if (nullable_) for_rows(sel, [&](uint32_t r) { out[r * width + width - 1] = 0; });
    for (size_t k = 0; k < keys.size(); ++k) {
      const Vec& key = *keys[k];
      const size_t at = offsets_[k];
      // Without a flag word NULL would share 0's group: never a wrong answer.
      if (key.has_nulls && !nullable_) {
        throw Error(ErrorKind::Internal, "a group key planned as never NULL was NULL");
      }
      for_rows(sel, [&](uint32_t r) {
        uint64_t* w = out + r * width + at;
        const bool null = key.is_null(r);
        if (null) out[r * width + width - 1] |= uint64_t{1} << k;
        if (phys_[k] == Phys::I128) {
          const int128 v = null ? 0 : key.w[r];
          w[0] = static_cast<uint64_t>(v);
          w[1] = static_cast<uint64_t>(static_cast<unsigned __int128>(v) >> 64);
        } else {
          w[0] = null ? 0 : phys_[k] == Phys::F64 ? double_word(key.f[r]) : key.i[r];
        }
      });
    }
    for_rows(sel, [&](uint32_t r) {
      uint64_t h = 0x9E3779B97F4A7C15ull;
      for (size_t j = 0; j < width; ++j) h = fmix64(h ^ out[r * width + j]);
      hashes_in_[r] = h;
    });
  }

  uint32_t find_or_insert(const uint64_t* key, uint64_t hash) {
    size_t mask = slots_.size() - 1;
    for (size_t s = hash & mask;; s = (s + 1) & mask) {
      const uint32_t slot = slots_[s];
      if (slot == 0) return insert(key, hash, s);
      const uint32_t g = slot - 1;
      if (hashes_[g] == hash && std::memcmp(&keys_[g * width_], key, width_ * 8) == 0) return g;
    }
  }

  uint32_t insert(const uint64_t* key, uint64_t hash, size_t s) {
    const auto g = static_cast<uint32_t>(hashes_.size());
    hashes_.push_back(hash);
    keys_.insert(keys_.end(), key, key + width_);
    slots_[s] = g + 1;
    if (hashes_.size() * 2 > slots_.size()) grow();
    return g;
  }

  // Doubles the slots at half full, so probes stay short.
  void grow() {
    slots_.assign(slots_.size() * 2, 0);
    const size_t mask = slots_.size() - 1;
    for (size_t g = 0; g < hashes_.size(); ++g) {
      size_t s = hashes_[g] & mask;
      while (slots_[s] != 0) s = (s + 1) & mask;
      slots_[s] = static_cast<uint32_t>(g + 1);
    }
  }

  std::vector<Phys> phys_;
  bool nullable_;
  std::vector<size_t> offsets_;
  size_t width_ = 0;                // words per key
  std::vector<uint64_t> row_keys_;  // the batch's keys, width_ words per row
  std::vector<uint64_t> hashes_in_;
  std::vector<uint32_t> slots_;   // group + 1; 0 = empty
  std::vector<uint64_t> keys_;    // per group, width_ words
  std::vector<uint64_t> hashes_;  // per group
};

}  // namespace

std::unique_ptr<GroupIndex> make_direct_index(std::vector<KeyDomain> domains) {
  return std::make_unique<DirectIndex>(std::move(domains));
}

std::unique_ptr<GroupIndex> make_hash_index(std::vector<Phys> keys, bool nullable) {
  return std::make_unique<HashIndex>(std::move(keys), nullable);
}

}  // namespace tally
