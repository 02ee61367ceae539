// CUDA streams and event timers, as move-only RAII handles.
#pragma once

#include "runtime/cuda/handles.h"

namespace tally::cuda {

// A non-blocking stream (does not synchronise with the legacy default stream), so
// batches on several streams overlap transfers and kernels.
class Stream {
 public:
  Stream();
  ~Stream();
  Stream(Stream&& other) noexcept;
  Stream& operator=(Stream&& other) noexcept;
  Stream(const Stream&) = delete;
  Stream& operator=(const Stream&) = delete;

  CUstream_st* handle() const { return stream_; }
  void synchronize() const;

  // The legacy default stream of the current context, where the aggregation's kernels run:
  // an asynchronous copy queued there starts once they have finished.
  static const Stream& legacy_default();

 private:
  struct Legacy {};
  explicit Stream(Legacy) {}
  void release() noexcept;
  CUstream_st* stream_ = nullptr;
};

// The default stream where an API takes an optional Stream*.
inline CUstream_st* stream_handle(const Stream* stream) {
  return stream ? stream->handle() : nullptr;
}

// GPU-side elapsed time between start() and stop() on a stream.
class EventTimer {
 public:
  EventTimer();
  ~EventTimer();
  EventTimer(EventTimer&& other) noexcept;
  EventTimer& operator=(EventTimer&& other) noexcept;
  EventTimer(const EventTimer&) = delete;
  EventTimer& operator=(const EventTimer&) = delete;

  void start(const Stream* stream = nullptr);
  void stop(const Stream* stream = nullptr);
  // Waits for the stop event, then returns milliseconds between the two events.
  float elapsed_ms() const;

 private:
  void release() noexcept;
  CUevent_st* start_ = nullptr;
  CUevent_st* stop_ = nullptr;
};

}  // namespace tally::cuda
