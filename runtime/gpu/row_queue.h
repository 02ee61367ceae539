// The rows of a table shared between engines that take them as they go (issue 17's
// co-processing): the GPU's streamed batches from the front, the CPU engine's chunks from
// the back, until the two meet. Whichever engine is faster takes more, with no rate to guess.
#pragma once

#include <algorithm>
#include <cstdint>
#include <mutex>

#include "runtime/gpu/device_layout.h"

namespace tally {

struct RowRange {
  uint64_t first = 0, end = 0;
  uint64_t rows() const { return end - first; }
  bool empty() const { return end <= first; }
};

class RowQueue {
 public:
  // Rows [first, end); `first` a multiple of 1024, as every range handed out starts on one.
  RowQueue(uint64_t first, uint64_t end) : front_(first), back_(std::max(first, end)) {}

  // Up to `rows` rows (a multiple of 1024) from the front; empty once the ends have met.
  RowRange take_front(uint64_t rows) {
    std::lock_guard lock(mutex_);
    const RowRange r{front_, std::min(back_, front_ + rows)};
    front_ = r.end;
    return r;
  }

  // About `rows` rows from the back, starting on a block: empty once the ends have met.
  RowRange take_back(uint64_t rows) {
    std::lock_guard lock(mutex_);
    const uint64_t first = back_ - std::min(rows, back_ - front_);
    const RowRange r{std::max(front_, first / kLaneBlockRows * kLaneBlockRows), back_};
    back_ = r.first;
    return r;
  }

  uint64_t remaining() const {
    std::lock_guard lock(mutex_);
    return back_ - front_;
  }

  // Where the front's rows end: once the queue is empty, the front taker's rows are
  // [first, front_end()).
  uint64_t front_end() const {
    std::lock_guard lock(mutex_);
    return front_;
  }

 private:
  mutable std::mutex mutex_;
  uint64_t front_, back_;
};

}  // namespace tally
