#include "runtime/load/block_reader.h"

#include <algorithm>
#include <cstring>

#include "runtime/load/copy_loader.h"

namespace tally {

namespace {

// A block of a large file: big enough that every thread gets a long piece of it.
constexpr size_t kBlockSize = 64 << 20;

}  // namespace

BlockReader::BlockReader(const std::string& statement, const std::string& path)
    : source_(statement, path) {
  // Small files get a small buffer; a large one (or a gzip file) starts at one block.
  uint64_t size = source_.text_bytes_hint();
  buffer_.resize(std::clamp<size_t>(source_.gzip() ? kBlockSize : size + 1, 4096, kBlockSize));
}

std::string_view BlockReader::next(const RecordFormat& format) {
  // Keep the partial record left over from the previous block.
  std::memmove(buffer_.data(), buffer_.data() + consumed_, filled_ - consumed_);
  filled_ -= consumed_;
  consumed_ = 0;
  for (;;) {
    if (filled_ == buffer_.size()) buffer_.resize(std::max(kBlockSize, buffer_.size() * 2));
    fill();
    size_t end = eof_ ? filled_ : last_record_end(buffer_.data(), filled_, format);
    if (end > 0 || eof_) {
      consumed_ = end;
      return {buffer_.data(), end};
    }
    // A record longer than the buffer: grow it and read on, up to the line limit (a file
    // without line ends, such as /dev/zero, would otherwise take all memory).
    if (filled_ > kMaxLineBytes) {
      too_long_ = true;
      return {};
    }
    buffer_.resize(buffer_.size() * 2);
  }
}

void BlockReader::fill() {
  while (filled_ < buffer_.size() && !eof_) {
    size_t n = source_.read(buffer_.data() + filled_, buffer_.size() - filled_);
    eof_ = n == 0;
    filled_ += n;
    text_read_ += n;
  }
}

}  // namespace tally
