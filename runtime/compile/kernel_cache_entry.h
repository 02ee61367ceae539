// The file format of one kernel cache entry: a fixed 96-byte header, then the binary.
//
//   offset size  field
//        0    8  magic "TALLYKC1"
//        8    4  format version (2), little-endian
//       12    4  flags: bit 0 set when the payload is PTX rather than a cubin
//       16   32  the key (SHA-256), which must match the file's name
//       48    8  payload length in bytes, little-endian
//       56    8  the payload's checksum (compiler/common/hash_bytes.h), little-endian
//       64   24  zero
//       88    8  NVRTC's compile time in ms (IEEE double, little-endian bits)
//       96    -  payload
//
// The checksum is not a SHA-256 (the key is): hashing a 130 KB cubin took 0.8 ms on the
// 2-core machine, at every load. Parsing checks every field and the exact file length, so a
// truncated, extended or bit-flipped entry is rejected with the reason rather than loaded.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "runtime/compile/kernel_cache_key.h"
#include "runtime/compile/nvrtc.h"

namespace tally {

inline constexpr size_t kKernelCacheHeaderBytes = 96;

std::string encode_kernel_entry(const KernelCacheKey& key, const cuda::CompiledKernel& kernel);

struct DecodedKernelEntry {
  std::optional<cuda::CompiledKernel> kernel;  // empty when the entry is invalid
  std::string problem;                         // why, e.g. "payload checksum mismatch"
};

DecodedKernelEntry decode_kernel_entry(std::string_view bytes, const KernelCacheKey& expected);

}  // namespace tally
