#include "runtime/compile/kernel_cache_entry.h"

#include <fmt/format.h>

#include <bit>
#include <cstring>

#include "compiler/common/hash_bytes.h"

namespace tally {

namespace {

constexpr std::string_view kMagic = "TALLYKC1";
constexpr uint32_t kFormatVersion = 2;
constexpr uint32_t kFlagPtx = 1;

void put_le(std::string& out, uint64_t value, int bytes) {
  for (int i = 0; i < bytes; ++i) out += static_cast<char>(value >> (8 * i));
}

uint64_t get_le(std::string_view in, size_t offset, int bytes) {
  uint64_t value = 0;
  for (int i = 0; i < bytes; ++i)
    value |= uint64_t{static_cast<uint8_t>(in[offset + i])} << (8 * i);
  return value;
}

void put_digest(std::string& out, const Sha256Digest& digest) {
  out.append(reinterpret_cast<const char*>(digest.data()), digest.size());
}

Sha256Digest get_digest(std::string_view in, size_t offset) {
  Sha256Digest digest;
  std::memcpy(digest.data(), in.data() + offset, digest.size());
  return digest;
}

DecodedKernelEntry invalid(std::string problem) { return {std::nullopt, std::move(problem)}; }

}  // namespace

std::string encode_kernel_entry(const KernelCacheKey& key, const cuda::CompiledKernel& kernel) {
  std::string_view payload(kernel.image.data(), kernel.image.size());
  std::string out(kMagic);
  put_le(out, kFormatVersion, 4);
  put_le(out, kernel.is_ptx ? kFlagPtx : 0, 4);
  put_digest(out, key.digest);
  put_le(out, payload.size(), 8);
  put_le(out, hash_bytes(payload), 8);
  out.append(24, '\0');
  put_le(out, std::bit_cast<uint64_t>(kernel.compile_ms), 8);
  out += payload;
  return out;
}

DecodedKernelEntry decode_kernel_entry(std::string_view bytes, const KernelCacheKey& expected) {
  if (bytes.size() < kKernelCacheHeaderBytes) {
    return invalid(
        fmt::format("truncated header ({} of {} bytes)", bytes.size(), kKernelCacheHeaderBytes));
  }
  if (bytes.substr(0, kMagic.size()) != kMagic) return invalid("not a tally kernel cache entry");
  uint32_t version = static_cast<uint32_t>(get_le(bytes, 8, 4));
  if (version != kFormatVersion) return invalid(fmt::format("format version {}", version));
  uint32_t flags = static_cast<uint32_t>(get_le(bytes, 12, 4));
  if ((flags & ~kFlagPtx) != 0) return invalid(fmt::format("unknown flags {:#x}", flags));
  if (get_digest(bytes, 16) != expected.digest) return invalid("key does not match the name");
  uint64_t length = get_le(bytes, 48, 8);
  std::string_view payload = bytes.substr(kKernelCacheHeaderBytes);
  if (payload.size() != length) {
    return invalid(fmt::format("payload is {} bytes, header says {}", payload.size(), length));
  }
  if (hash_bytes(payload) != get_le(bytes, 56, 8)) {
    return invalid("payload checksum mismatch");
  }
  cuda::CompiledKernel kernel;
  kernel.image.assign(payload.begin(), payload.end());
  kernel.is_ptx = (flags & kFlagPtx) != 0;
  kernel.compile_ms = std::bit_cast<double>(get_le(bytes, 88, 8));
  return {std::move(kernel), ""};
}

}  // namespace tally
