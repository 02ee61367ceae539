#include "runtime/compile/kernel_cache_key.h"

#include <cstdint>

#include "compiler/codegen/embedded_templates.h"

namespace tally {

namespace {

// Each field goes in with its length first, so that no two different inputs hash the same
// byte stream ("ab"+"c" and "a"+"bc" differ).
void add_field(Sha256& hash, std::string_view field) {
  uint64_t size = field.size();
  uint8_t length[8];
  for (int i = 0; i < 8; ++i) length[i] = static_cast<uint8_t>(size >> (8 * i));
  hash.update(length, sizeof length);
  hash.update(field);
}

}  // namespace

std::string KernelCacheKeyInputs::tally_release() { return TALLY_VERSION; }

std::string KernelCacheKeyInputs::device_library() {
  std::string all;
  for (const EmbeddedFile& file : embedded_templates()) {
    for (std::string_view field : {std::string_view(file.name), std::string_view(file.text)}) {
      all += std::to_string(field.size()) + ":";
      all += field;
    }
  }
  return all;
}

const std::string& KernelCacheKeyInputs::device_library_digest() {
  static const std::string digest = to_hex(sha256(device_library()));
  return digest;
}

KernelCacheKey kernel_cache_key(const KernelCacheKeyInputs& inputs) {
  Sha256 hash;
  add_field(hash, "tally kernel cache key v3");
  add_field(hash, inputs.tally_version);
  add_field(hash, std::to_string(inputs.nvrtc_version));
  add_field(hash, inputs.arch);
  add_field(hash, std::to_string(inputs.nvrtc_args.size()));
  for (const std::string& arg : inputs.nvrtc_args) add_field(hash, arg);
  add_field(hash, inputs.headers);
  add_field(hash, inputs.source);
  return KernelCacheKey{hash.finish()};
}

}  // namespace tally
