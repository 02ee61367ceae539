#include "runtime/cuda/stream.h"

#include <utility>

#include "runtime/cuda/driver_api.h"

namespace tally::cuda {

Stream::Stream() {
  CUstream stream = nullptr;
  check(driver().cuStreamCreate(&stream, CU_STREAM_NON_BLOCKING), "cuStreamCreate");
  stream_ = stream;
}

Stream::~Stream() { release(); }

const Stream& Stream::legacy_default() {
  static const Stream legacy{Legacy{}};  // a null handle: nothing to destroy
  return legacy;
}

Stream::Stream(Stream&& other) noexcept : stream_(std::exchange(other.stream_, nullptr)) {}

Stream& Stream::operator=(Stream&& other) noexcept {
  if (this != &other) {
    release();
    stream_ = std::exchange(other.stream_, nullptr);
  }
  return *this;
}

void Stream::release() noexcept {
  // Destroying a stream with work in flight is allowed: the driver finishes it first.
  if (stream_ != nullptr) driver().cuStreamDestroy(stream_);
  stream_ = nullptr;
}

void Stream::synchronize() const {
  check(driver().cuStreamSynchronize(stream_), "cuStreamSynchronize", "waiting for a stream");
}

EventTimer::EventTimer() {
  CUevent start = nullptr, stop = nullptr;
  check(driver().cuEventCreate(&start, CU_EVENT_DEFAULT), "cuEventCreate");
  if (CUresult r = driver().cuEventCreate(&stop, CU_EVENT_DEFAULT); r != CUDA_SUCCESS) {
    driver().cuEventDestroy(start);
    check(r, "cuEventCreate");
  }
  start_ = start;
  stop_ = stop;
}

EventTimer::~EventTimer() { release(); }

EventTimer::EventTimer(EventTimer&& other) noexcept
    : start_(std::exchange(other.start_, nullptr)), stop_(std::exchange(other.stop_, nullptr)) {}

EventTimer& EventTimer::operator=(EventTimer&& other) noexcept {
  if (this != &other) {
    release();
    start_ = std::exchange(other.start_, nullptr);
    stop_ = std::exchange(other.stop_, nullptr);
  }
  return *this;
}

void EventTimer::release() noexcept {
  if (start_ != nullptr) driver().cuEventDestroy(start_);
  if (stop_ != nullptr) driver().cuEventDestroy(stop_);
  start_ = stop_ = nullptr;
}

void EventTimer::start(const Stream* stream) {
  check(driver().cuEventRecord(start_, stream_handle(stream)), "cuEventRecord");
}

void EventTimer::stop(const Stream* stream) {
  check(driver().cuEventRecord(stop_, stream_handle(stream)), "cuEventRecord");
}

float EventTimer::elapsed_ms() const {
  check(driver().cuEventSynchronize(stop_), "cuEventSynchronize", "waiting for a timed kernel");
  float ms = 0;
  check(driver().cuEventElapsedTime(&ms, start_, stop_), "cuEventElapsedTime");
  return ms;
}

}  // namespace tally::cuda
