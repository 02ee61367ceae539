#include "runtime/cuda/memory.h"

#include <fmt/format.h>

#include <bit>
#include <map>
#include <mutex>
#include <utility>

#include "compiler/common/error.h"
#include "runtime/cuda/driver_api.h"

namespace tally::cuda {
namespace {

std::string allocation_context(size_t bytes, std::string_view what) {
  return fmt::format("allocating {} for {}", format_bytes(bytes), what);
}

// The result is returned, not checked, so that the pool can trim its cache and retry.
CUresult try_allocate(size_t bytes, CUdeviceptr* ptr) { return driver().cuMemAlloc(ptr, bytes); }

void free_device(DevicePtr ptr) noexcept {
  // Called from destructors: a failure (the context already gone at exit) is not
  // reportable, and the memory is released with the context either way.
  if (ptr != 0) driver().cuMemFree(ptr);
}

}  // namespace

namespace detail {

class PoolCache {
 public:
  explicit PoolCache(uint64_t max_cached_bytes) : max_cached_bytes_(max_cached_bytes) {}
  ~PoolCache() { trim(); }

  // Counts a buffer just allocated from the driver.
  void count_allocated(size_t capacity) {
    std::lock_guard lock(mutex_);
    held_bytes_ += capacity;
  }

  DevicePtr take(size_t capacity) {
    std::lock_guard lock(mutex_);
    auto it = free_.find(capacity);
    if (it == free_.end()) return 0;
    const DevicePtr ptr = it->second;
    free_.erase(it);
    cached_bytes_ -= capacity;
    return ptr;
  }

  // Keeps the buffer if it fits under the cap; otherwise frees it.
  void give(DevicePtr ptr, size_t capacity) noexcept {
    {
      std::lock_guard lock(mutex_);
      if (cached_bytes_ + capacity <= max_cached_bytes_) {
        free_.emplace(capacity, ptr);
        cached_bytes_ += capacity;
        return;
      }
      held_bytes_ -= capacity;
    }
    free_device(ptr);
  }

  void trim() noexcept {
    std::multimap<size_t, DevicePtr> cached;
    {
      std::lock_guard lock(mutex_);
      cached.swap(free_);
      held_bytes_ -= cached_bytes_;
      cached_bytes_ = 0;
    }
    for (const auto& [capacity, ptr] : cached) free_device(ptr);
  }

  uint64_t cached_bytes() const {
    std::lock_guard lock(mutex_);
    return cached_bytes_;
  }
  uint64_t held_bytes() const {
    std::lock_guard lock(mutex_);
    return held_bytes_;
  }

 private:
  mutable std::mutex mutex_;
  std::multimap<size_t, DevicePtr> free_;  // by capacity
  uint64_t cached_bytes_ = 0;
  uint64_t held_bytes_ = 0;  // allocated from the driver and not freed: in use + cached
  const uint64_t max_cached_bytes_;
};

}  // namespace detail

namespace {

// The driver's allocation, or out of memory when it would pass the pool's limit.
CUresult try_allocate_within(uint64_t limit, const detail::PoolCache& cache, size_t capacity,
                             CUdeviceptr* ptr) {
  if (limit > 0 && cache.held_bytes() + capacity > limit) return CUDA_ERROR_OUT_OF_MEMORY;
  return try_allocate(capacity, ptr);
}

}  // namespace

// ---- DeviceBuffer ---------------------------------------------------------------------

DeviceBuffer::DeviceBuffer(size_t bytes, std::string_view what) : size_(bytes), capacity_(bytes) {
  if (bytes == 0) return;
  CUdeviceptr ptr = 0;
  check(try_allocate(bytes, &ptr), "cuMemAlloc", allocation_context(bytes, what));
  ptr_ = ptr;
}

DeviceBuffer::~DeviceBuffer() { release(); }

DeviceBuffer::DeviceBuffer(DeviceBuffer&& other) noexcept
    : ptr_(std::exchange(other.ptr_, 0)),
      size_(std::exchange(other.size_, 0)),
      capacity_(std::exchange(other.capacity_, 0)),
      pool_(std::move(other.pool_)),
      owned_(std::exchange(other.owned_, true)) {}

DeviceBuffer& DeviceBuffer::operator=(DeviceBuffer&& other) noexcept {
  if (this != &other) {
    release();
    ptr_ = std::exchange(other.ptr_, 0);
    size_ = std::exchange(other.size_, 0);
    capacity_ = std::exchange(other.capacity_, 0);
    pool_ = std::move(other.pool_);
    owned_ = std::exchange(other.owned_, true);
  }
  return *this;
}

DeviceBuffer DeviceBuffer::view(size_t offset, size_t bytes) const {
  check_range(bytes, offset, "view");
  DeviceBuffer part;
  part.ptr_ = ptr_ + offset;
  part.size_ = bytes;
  part.owned_ = false;
  return part;
}

void DeviceBuffer::release() noexcept {
  if (ptr_ != 0 && owned_) {
    if (pool_) {
      pool_->give(ptr_, capacity_);
    } else {
      free_device(ptr_);
    }
  }
  ptr_ = 0;
  size_ = capacity_ = 0;
  pool_.reset();
  owned_ = true;
}

void DeviceBuffer::check_range(size_t bytes, size_t offset, const char* operation) const {
  if (offset > size_ || bytes > size_ - offset) {
    throw Error(ErrorKind::Internal,
                fmt::format("{} of {} bytes at offset {} overruns a device buffer of {} bytes",
                            operation, bytes, offset, size_));
  }
}

void DeviceBuffer::upload(const void* host, size_t bytes, size_t offset, const Stream* stream) {
  check_range(bytes, offset, "upload");
  if (bytes == 0) return;
  auto context = [bytes] { return fmt::format("copying {} to the GPU", format_bytes(bytes)); };
  if (stream) {
    check(driver().cuMemcpyHtoDAsync(ptr_ + offset, host, bytes, stream->handle()),
          "cuMemcpyHtoDAsync", context);
  } else {
    check(driver().cuMemcpyHtoD(ptr_ + offset, host, bytes), "cuMemcpyHtoD", context);
  }
}

void DeviceBuffer::download(void* host, size_t bytes, size_t offset, const Stream* stream) const {
  check_range(bytes, offset, "download");
  if (bytes == 0) return;
  auto context = [bytes] { return fmt::format("copying {} from the GPU", format_bytes(bytes)); };
  if (stream) {
    check(driver().cuMemcpyDtoHAsync(host, ptr_ + offset, bytes, stream->handle()),
          "cuMemcpyDtoHAsync", context);
  } else {
    check(driver().cuMemcpyDtoH(host, ptr_ + offset, bytes), "cuMemcpyDtoH", context);
  }
}

void DeviceBuffer::fill_bytes(uint8_t value, const Stream* stream) {
  if (size_ == 0) return;
  if (stream) {
    check(driver().cuMemsetD8Async(ptr_, value, size_, stream->handle()), "cuMemsetD8Async");
  } else {
    check(driver().cuMemsetD8(ptr_, value, size_), "cuMemsetD8");
  }
}

void DeviceBuffer::fill_words(uint32_t value, const Stream* stream) {
  if (size_ % 4 != 0) {
    throw Error(ErrorKind::Internal,
                fmt::format("fill_words on a buffer of {} bytes, not a multiple of 4", size_));
  }
  if (size_ == 0) return;
  if (stream) {
    check(driver().cuMemsetD32Async(ptr_, value, size_ / 4, stream->handle()), "cuMemsetD32Async");
  } else {
    check(driver().cuMemsetD32(ptr_, value, size_ / 4), "cuMemsetD32");
  }
}

// ---- BufferPool -----------------------------------------------------------------------

BufferPool::BufferPool(uint64_t max_cached_bytes)
    : cache_(std::make_shared<detail::PoolCache>(max_cached_bytes)) {}

size_t BufferPool::size_class(size_t bytes) {
  constexpr size_t kMinimum = 256;  // cuMemAlloc's own alignment
  if (bytes <= kMinimum) return kMinimum;
  const size_t step = std::max(kMinimum, std::bit_floor(bytes) / 4);
  return (bytes + step - 1) / step * step;
}

DeviceBuffer BufferPool::allocate(size_t bytes, std::string_view what) {
  if (bytes == 0) return DeviceBuffer();
  const size_t capacity = size_class(bytes);
  if (DevicePtr ptr = cache_->take(capacity)) return DeviceBuffer(ptr, bytes, capacity, cache_);
  CUdeviceptr ptr = 0;
  CUresult result = try_allocate_within(limit_, *cache_, capacity, &ptr);
  if (result == CUDA_ERROR_OUT_OF_MEMORY) {
    cache_->trim();
    result = try_allocate_within(limit_, *cache_, capacity, &ptr);
  }
  while (result == CUDA_ERROR_OUT_OF_MEMORY && reclaim_ && reclaim_()) {
    cache_->trim();  // what the reclaimer released came back to the cache
    result = try_allocate_within(limit_, *cache_, capacity, &ptr);
  }
  if (result == CUDA_ERROR_OUT_OF_MEMORY && limit_ > 0 &&
      cache_->held_bytes() + capacity > limit_) {
    throw Error(ErrorKind::Device,
                fmt::format("out of device memory while {}: the device memory limit is {}, and {} "
                            "of it is in use",
                            allocation_context(capacity, what), format_bytes(limit_),
                            format_bytes(cache_->held_bytes())));
  }
  check(result, "cuMemAlloc", allocation_context(capacity, what));
  cache_->count_allocated(capacity);
  return DeviceBuffer(ptr, bytes, capacity, cache_);
}

void BufferPool::trim() { cache_->trim(); }

uint64_t BufferPool::cached_bytes() const { return cache_->cached_bytes(); }

uint64_t BufferPool::held_bytes() const { return cache_->held_bytes(); }

// ---- PinnedBuffer ---------------------------------------------------------------------

PinnedBuffer::PinnedBuffer(size_t bytes, std::string_view what) : size_(bytes) {
  if (bytes == 0) return;
  check(driver().cuMemAllocHost(&data_, bytes), "cuMemAllocHost",
        fmt::format("allocating {} of pinned host memory for {}", format_bytes(bytes), what));
}

PinnedBuffer::~PinnedBuffer() { release(); }

PinnedBuffer::PinnedBuffer(PinnedBuffer&& other) noexcept
    : data_(std::exchange(other.data_, nullptr)), size_(std::exchange(other.size_, 0)) {}

PinnedBuffer& PinnedBuffer::operator=(PinnedBuffer&& other) noexcept {
  if (this != &other) {
    release();
    data_ = std::exchange(other.data_, nullptr);
    size_ = std::exchange(other.size_, 0);
  }
  return *this;
}

void PinnedBuffer::release() noexcept {
  if (data_ != nullptr) driver().cuMemFreeHost(data_);
  data_ = nullptr;
  size_ = 0;
}

}  // namespace tally::cuda
