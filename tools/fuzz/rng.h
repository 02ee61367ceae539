// The fuzzer's random numbers: one small deterministic generator, so that a seed names the
// same statements on every machine and build (std::uniform_int_distribution is not
// specified bit-for-bit across standard libraries, so it is not used).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "tools/data/random.h"

namespace tally::fuzz {

class Rng {
 public:
  explicit Rng(uint64_t seed) : state_(splitmix64(seed)) {}

  uint64_t bits() {
    state_ += 0x9e3779b97f4a7c15ULL;
    return splitmix64(state_);
  }
  // Uniform in [0, n); n must be > 0.
  uint64_t below(uint64_t n) { return uniform_below(bits(), n); }
  int64_t between(int64_t lo, int64_t hi) { return uniform_between(bits(), lo, hi); }
  // True with probability percent / 100.
  bool chance(int percent) { return below(100) < static_cast<uint64_t>(percent); }

  template <typename T>
  T pick(const std::vector<T>& items) {  // a copy: callers pass temporaries
    return items[below(items.size())];
  }

 private:
  uint64_t state_;
};

}  // namespace tally::fuzz
