// Device memory: RAII buffers, a caching pool of freed buffers by size class, and pinned
// host buffers for overlapped transfers. All move-only; all failures are Error(Device)
// naming the call, the size and what the memory was for.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <string_view>
#include <vector>

#include "runtime/cuda/handles.h"
#include "runtime/cuda/stream.h"

namespace tally::cuda {

namespace detail {
class PoolCache;
}

class DeviceBuffer {
 public:
  DeviceBuffer() = default;
  // `bytes` of device memory (0 gives an empty buffer with address 0). `what` names the
  // use in error messages: "while allocating 12.0 GiB for <what>".
  DeviceBuffer(size_t bytes, std::string_view what);
  ~DeviceBuffer();
  DeviceBuffer(DeviceBuffer&& other) noexcept;
  DeviceBuffer& operator=(DeviceBuffer&& other) noexcept;
  DeviceBuffer(const DeviceBuffer&) = delete;
  DeviceBuffer& operator=(const DeviceBuffer&) = delete;

  DevicePtr ptr() const { return ptr_; }
  size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }
  // The address typed for a kernel argument; never dereference it on the host.
  template <class T>
  T* as() const {
    return reinterpret_cast<T*>(ptr_);
  }

  // Copies within [offset, offset + bytes) of this buffer. Without a stream the copy is
  // finished on return; with one it is ordered on that stream (host memory must then stay
  // alive, and be pinned for a truly asynchronous copy).
  void upload(const void* host, size_t bytes, size_t offset = 0, const Stream* stream = nullptr);
  void download(void* host, size_t bytes, size_t offset = 0, const Stream* stream = nullptr) const;
  void fill_bytes(uint8_t value, const Stream* stream = nullptr);
  void fill_words(uint32_t value, const Stream* stream = nullptr);  // size() % 4 == 0

  // Bytes [offset, offset + bytes) of this buffer as a buffer that does not own them: valid
  // while this one lives (several results in one allocation, read back in one copy).
  DeviceBuffer view(size_t offset, size_t bytes) const;

  template <class T>
  void upload_vector(const std::vector<T>& values, const Stream* stream = nullptr) {
    upload(values.data(), values.size() * sizeof(T), 0, stream);
  }
  template <class T>
  std::vector<T> download_vector(size_t count) const {
    std::vector<T> values(count);
    download(values.data(), count * sizeof(T));
    return values;
  }

 private:
  friend class BufferPool;
  DeviceBuffer(DevicePtr ptr, size_t size, size_t capacity, std::shared_ptr<detail::PoolCache> pool)
      : ptr_(ptr), size_(size), capacity_(capacity), pool_(std::move(pool)) {}
  void check_range(size_t bytes, size_t offset, const char* operation) const;
  void release() noexcept;

  DevicePtr ptr_ = 0;
  size_t size_ = 0;                          // bytes asked for
  size_t capacity_ = 0;                      // bytes allocated (the size class, for pooled buffers)
  std::shared_ptr<detail::PoolCache> pool_;  // where the memory returns; null = cuMemFree
  bool owned_ = true;                        // false for a view: nothing to return
};

// Keeps freed buffers, up to `max_cached_bytes`, for reuse by later allocations of the
// same size class (sizes rounded up to a quarter of their power of two, at most 25% more;
// below 1 KiB to a multiple of 256 bytes),
// so repeated queries do not pay cuMemAlloc/cuMemFree each run. An allocation that finds
// the device out of memory frees the cache and tries once more. Buffers keep the cache
// alive, so they may outlive the pool object.
class BufferPool {
 public:
  explicit BufferPool(uint64_t max_cached_bytes = uint64_t{1} << 30);

  DeviceBuffer allocate(size_t bytes, std::string_view what);
  void trim();  // frees every cached buffer
  uint64_t cached_bytes() const;
  // Device memory the pool's buffers hold, in use or cached (the driver's view of it).
  uint64_t held_bytes() const;

  // At most `bytes` held at once (0: no limit): an allocation that would pass it is out of
  // memory, evicting and reclaiming as a full device would, so a small budget can be
  // tested on any GPU. The error names the limit.
  void set_limit(uint64_t bytes) { limit_ = bytes; }
  uint64_t limit() const { return limit_; }

  // Called when the device is out of memory even with the cache freed: releases something
  // the owner can rebuild (the engine's least recently used columns) and returns true, or
  // returns false when nothing is left to release; the allocation retries while it frees.
  void set_reclaimer(std::function<bool()> reclaim) { reclaim_ = std::move(reclaim); }

  static size_t size_class(size_t bytes);

 private:
  std::shared_ptr<detail::PoolCache> cache_;
  std::function<bool()> reclaim_;
  uint64_t limit_ = 0;
};

// Page-locked host memory (cuMemAllocHost): the source or target of asynchronous copies.
class PinnedBuffer {
 public:
  PinnedBuffer() = default;
  PinnedBuffer(size_t bytes, std::string_view what);
  ~PinnedBuffer();
  PinnedBuffer(PinnedBuffer&& other) noexcept;
  PinnedBuffer& operator=(PinnedBuffer&& other) noexcept;
  PinnedBuffer(const PinnedBuffer&) = delete;
  PinnedBuffer& operator=(const PinnedBuffer&) = delete;

  void* data() const { return data_; }
  size_t size() const { return size_; }

 private:
  void release() noexcept;
  void* data_ = nullptr;
  size_t size_ = 0;
};

}  // namespace tally::cuda
