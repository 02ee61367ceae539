// What the hand-written GROUP BY peers (bench/groupby_peers.cu and the files beside it) share:
// their device buffers and input, the grid-stride row walk, and how a peer reports that it
// failed or does not apply. CUDA code, included by the peers' .cu files only.
#pragma once

#include <cuda_runtime.h>

#include <cstdint>
#include <cstdio>
#include <string>

#include "bench/groupby_peers.h"

namespace groupby_peers_detail {

constexpr int kSharedBlock = 512;

// Device memory that only grows (allocation stays out of the timed runs).
struct Buffer {
  void* ptr = nullptr;
  size_t bytes = 0;
  cudaError_t reserve(size_t n) {
    if (n <= bytes) return cudaSuccess;
    release();
    cudaError_t e = cudaMalloc(&ptr, n);
    if (e == cudaSuccess) bytes = n;
    return e;
  }
  void release() {
    if (ptr) cudaFree(ptr);
    ptr = nullptr;
    bytes = 0;
  }
  template <class T>
  T* as() const {
    return static_cast<T*>(ptr);
  }
};

// No destructor: the runtime may be gone when static objects are destroyed.
struct Peers {
  uint64_t rows = 0;
  Buffer values, keys;  // the input
  Buffer counts, sums;  // atomics, shared: K counts (u32) and sums (u64)
  Buffer sorted_keys, sorted_values, unique, aggregates, runs, temp;  // cub
};
extern Peers g;  // defined in groupby_peers.cu

// Calls row(key, value) for this thread's rows of a grid-stride walk, four at a time, where
// the walk's blocks are `blocks` and this thread's is `block`.
template <class Row>
__device__ __forceinline__ void for_each_row_of(const uint32_t* __restrict__ keys,
                                                const int32_t* __restrict__ values, uint64_t rows,
                                                uint32_t block, uint32_t blocks, Row row) {
  const uint64_t quads = rows / 4;
  const uint64_t stride = static_cast<uint64_t>(blocks) * blockDim.x;
  const uint64_t first = static_cast<uint64_t>(block) * blockDim.x + threadIdx.x;
  const uint4* k4 = reinterpret_cast<const uint4*>(keys);
  const int4* v4 = reinterpret_cast<const int4*>(values);
  for (uint64_t i = first; i < quads; i += stride) {
    uint4 k = __ldg(k4 + i);
    int4 v = __ldg(v4 + i);
    row(k.x, v.x);
    row(k.y, v.y);
    row(k.z, v.z);
    row(k.w, v.w);
  }
  for (uint64_t i = quads * 4 + first; i < rows; i += stride) row(keys[i], values[i]);
}

// The walk over the whole grid.
template <class Row>
__device__ __forceinline__ void for_each_row(const uint32_t* __restrict__ keys,
                                             const int32_t* __restrict__ values, uint64_t rows,
                                             Row row) {
  for_each_row_of(keys, values, rows, blockIdx.x, gridDim.x, row);
}

// A table of `slots` counts and 64-bit sums in (possibly another block's) shared memory as
// three arrays of 32-bit words: counts, low and high sum words (64-bit shared atomics are a
// CAS loop on sm_90). A low word's atomicAdd returns the old value, so the thread whose add
// wrapped it around carries one into the high word.
struct SharedCountSums {
  unsigned* n;
  unsigned* lo;
  unsigned* hi;
  uint32_t slots;

  __device__ SharedCountSums(unsigned* table, uint32_t slots)
      : n(table), lo(table + slots), hi(table + 2 * slots), slots(slots) {}

  __device__ void clear() const {  // block-cooperative
    for (uint32_t s = threadIdx.x; s < 3 * slots; s += blockDim.x) n[s] = 0;
  }

  __device__ void add(uint32_t slot, unsigned value) const {
    atomicAdd(n + slot, 1u);
    const unsigned old = atomicAdd(lo + slot, value);
    if (old + value < old) atomicAdd(hi + slot, 1u);
  }

  // Block-cooperative: slots [0, end) with rows into counts/sums[key0 + slot], each cleared.
  __device__ void flush(uint32_t key0, uint32_t end, unsigned* counts,
                        unsigned long long* sums) const {
    for (uint32_t s = threadIdx.x; s < end; s += blockDim.x) {
      if (n[s] == 0) continue;
      atomicAdd(counts + key0 + s, n[s]);
      atomicAdd(sums + key0 + s, (static_cast<unsigned long long>(hi[s]) << 32) | lo[s]);
      n[s] = lo[s] = hi[s] = 0;
    }
  }
};

inline GroupbyPeerResult failed(const char* what, cudaError_t e) {
  GroupbyPeerResult r{};
  r.status = kPeerFailed;
  std::snprintf(r.message, sizeof r.message, "%s: %s", what, cudaGetErrorString(e));
  cudaGetLastError();  // clears a sticky launch error where it can be cleared
  return r;
}

inline GroupbyPeerResult not_applicable(const std::string& why) {
  GroupbyPeerResult r{};
  r.status = kPeerNotApplicable;
  std::snprintf(r.message, sizeof r.message, "%s", why.c_str());
  return r;
}

#define PEER_CHECK(call)                             \
  do {                                               \
    cudaError_t e_ = (call);                         \
    if (e_ != cudaSuccess) return failed(#call, e_); \
  } while (0)

// The peers at one K: prepare_* allocates and sizes the grid (outside the timing), run_* runs.
GroupbyPeerResult prepare_cluster(uint32_t k, int optin);
cudaError_t run_cluster(uint32_t k);
GroupbyPeerResult prepare_partition(uint32_t k, int sms);
cudaError_t run_partition(uint32_t k);
void release_partition_buffers();

}  // namespace groupby_peers_detail
