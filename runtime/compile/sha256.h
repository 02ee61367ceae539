// SHA-256 (FIPS 180-4), written out here so that the kernel cache needs no crypto library.
// Used for cache keys and payload checksums, where a collision would load the wrong kernel.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace tally {

using Sha256Digest = std::array<uint8_t, 32>;

class Sha256 {
 public:
  Sha256();
  void update(const void* data, size_t size);
  void update(std::string_view text) { update(text.data(), text.size()); }
  Sha256Digest finish();  // the object is spent afterwards

 private:
  void compress(const uint8_t* block);

  std::array<uint32_t, 8> state_;
  std::array<uint8_t, 64> buffer_{};
  size_t buffered_ = 0;
  uint64_t total_bytes_ = 0;
};

Sha256Digest sha256(std::string_view data);
std::string to_hex(const Sha256Digest& digest);

}  // namespace tally
