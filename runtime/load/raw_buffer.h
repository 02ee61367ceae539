// A byte buffer whose new bytes are not zeroed. Loads read files into buffers of up to
// 64 MiB; a std::vector<char> would write every byte twice (the zeroing and the read), and
// on a virtual machine the zeroing's page faults alone took a fifth of a load's time.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstring>
#include <memory>

namespace tally {

class RawBuffer {
 public:
  char* data() { return bytes_.get(); }
  const char* data() const { return bytes_.get(); }
  size_t size() const { return size_; }

  // Keeps the first min(size(), n) bytes; the bytes past them hold anything.
  void resize(size_t n) {
    if (n == size_) return;
    std::unique_ptr<char[]> bytes(new char[n]);  // default-initialized: not zeroed
    if (size_ > 0) std::memcpy(bytes.get(), bytes_.get(), std::min(size_, n));
    bytes_ = std::move(bytes);
    size_ = n;
  }

 private:
  std::unique_ptr<char[]> bytes_;
  size_t size_ = 0;
};

}  // namespace tally
