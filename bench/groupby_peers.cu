// The hand-written GROUP BY peers of bench/groupby_sweep (see groupby_peers.h): what a
// CUDA programmer writes for COUNT(*), SUM(value) GROUP BY key without a query compiler.
// Keys are int32 in [0, K), values int32 >= 0 (col2 of the seed paper's atable); every peer
// loads four rows at a time (int4) and walks the rows with a grid-stride loop.
#include <cuda_runtime.h>
#include <thrust/iterator/transform_iterator.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cub/device/device_radix_sort.cuh>
#include <cub/device/device_reduce.cuh>
#include <string>
#include <vector>

#include "bench/groupby_peer_support.cuh"
#include "bench/groupby_peers.h"

namespace groupby_peers_detail {
Peers g;
}  // namespace groupby_peers_detail

namespace {

using namespace groupby_peers_detail;

std::string g_error;

struct CountSum {
  unsigned long long count;
  long long sum;
};
struct ToCountSum {
  __host__ __device__ CountSum operator()(int32_t v) const { return {1ull, v}; }
};
struct AddCountSum {
  __host__ __device__ CountSum operator()(const CountSum& a, const CountSum& b) const {
    return {a.count + b.count, a.sum + b.sum};
  }
};

constexpr int kAtomicsBlock = 256;

__global__ void __launch_bounds__(kAtomicsBlock)
    global_atomics(const uint32_t* __restrict__ keys, const int32_t* __restrict__ values,
                   uint64_t rows, unsigned* counts, unsigned long long* sums) {
  for_each_row(keys, values, rows, [&](uint32_t key, int32_t v) {
    atomicAdd(counts + key, 1u);
    atomicAdd(sums + key, static_cast<unsigned long long>(v));
  });
}

// COUNT(*) and SUM(value) of a key packed in one 64-bit word, the count above bit 32: one
// global atomic a row instead of two. A sum's low half may carry into the count; the add that
// carried sees it in the old word it gets back and counts it in `carries`, which
// packed_finish takes out of the count and adds to the sum (rows < 2^31 and values < 2^31,
// so count and carries stay under 2^32).
__global__ void __launch_bounds__(kAtomicsBlock)
    packed_atomics(const uint32_t* __restrict__ keys, const int32_t* __restrict__ values,
                   uint64_t rows, unsigned long long* packed, unsigned* carries) {
  for_each_row(keys, values, rows, [&](uint32_t key, int32_t v) {
    const unsigned long long low = static_cast<unsigned>(v);
    const unsigned long long old = atomicAdd(packed + key, (1ull << 32) + low);
    if ((old & 0xffffffffull) + low > 0xffffffffull) atomicAdd(carries + key, 1u);
  });
}

// In place: the packed words become 64-bit sums, the carries 32-bit counts.
__global__ void packed_finish(uint32_t k, unsigned long long* packed, unsigned* carries) {
  for (uint32_t slot = blockIdx.x * blockDim.x + threadIdx.x; slot < k;
       slot += gridDim.x * blockDim.x) {
    const unsigned long long word = packed[slot];
    const unsigned carried = carries[slot];
    carries[slot] = static_cast<unsigned>(word >> 32) - carried;
    packed[slot] = (word & 0xffffffffull) + (static_cast<unsigned long long>(carried) << 32);
  }
}

// The packed word the other way round, with no returned value to wait for: the count in the
// low `count_bits` (as many as the row count needs, so it never carries), the sum above it
// modulo 2^(64 - count_bits). A sum is exact where its count times the largest value (col2 <
// 10^6) stays below that; packed_red_finish marks any other group (a sum of ~0, so the
// check fails) where a query compiler would run the table again unpacked.
__global__ void __launch_bounds__(kAtomicsBlock)
    packed_red_atomics(const uint32_t* __restrict__ keys, const int32_t* __restrict__ values,
                       uint64_t rows, uint32_t count_bits, unsigned long long* packed) {
  for_each_row(keys, values, rows, [&](uint32_t key, int32_t v) {
    atomicAdd(packed + key, (static_cast<unsigned long long>(v) << count_bits) + 1ull);
  });
}

__global__ void packed_red_finish(uint32_t k, uint32_t count_bits, unsigned long long* packed,
                                  unsigned* counts) {
  for (uint32_t slot = blockIdx.x * blockDim.x + threadIdx.x; slot < k;
       slot += gridDim.x * blockDim.x) {
    const unsigned long long word = packed[slot];
    const unsigned long long count = word & ((1ull << count_bits) - 1);
    const bool exact = count * 1000000ull < (1ull << (64 - count_bits));
    counts[slot] = static_cast<unsigned>(count);
    packed[slot] = exact ? word >> count_bits : ~0ull;
  }
}

// packed_red_atomics over the keys [base, base + slots) only: the l2_sliced peer's passes,
// each over every key but adding only its slice's rows, whose table then stays in L2. A value
// is loaded only for a row of the slice.
__global__ void __launch_bounds__(kAtomicsBlock)
    l2_slice_atomics(const uint32_t* __restrict__ keys, const int32_t* __restrict__ values,
                     uint64_t rows, uint32_t count_bits, uint32_t base, uint32_t slots,
                     unsigned long long* packed) {
  const auto add = [&](uint32_t key, uint64_t row) {
    if (key - base >= slots) return;
    const unsigned long long v = static_cast<unsigned>(__ldg(values + row));
    atomicAdd(packed + key, (v << count_bits) + 1ull);
  };
  const uint64_t quads = rows / 4;
  const uint64_t stride = static_cast<uint64_t>(gridDim.x) * blockDim.x;
  const uint64_t first = static_cast<uint64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  const uint4* k4 = reinterpret_cast<const uint4*>(keys);
  for (uint64_t i = first; i < quads; i += stride) {
    const uint4 k = __ldg(k4 + i);
    add(k.x, 4 * i);
    add(k.y, 4 * i + 1);
    add(k.z, 4 * i + 2);
    add(k.w, 4 * i + 3);
  }
  for (uint64_t i = quads * 4 + first; i < rows; i += stride) add(keys[i], i);
}

// A block-private table in shared memory (SharedCountSums) of the keys [base, base + slots),
// flushed once; rows with other keys are skipped (the sliced peer's other passes take them).
__global__ void __launch_bounds__(kSharedBlock)
    shared_tables(const uint32_t* __restrict__ keys, const int32_t* __restrict__ values,
                  uint64_t rows, uint32_t base, uint32_t slots, unsigned* counts,
                  unsigned long long* sums) {
  extern __shared__ unsigned words[];
  const SharedCountSums table(words, slots);
  table.clear();
  __syncthreads();
  for_each_row(keys, values, rows, [&](uint32_t key, int32_t v) {
    if (key - base < slots) table.add(key - base, static_cast<unsigned>(v));
  });
  __syncthreads();
  table.flush(base, slots, counts, sums);
}

// The sliced peer's passes as one launch: block b merges the keys of slice b % slices into
// its table and walks the rows of group b / slices.
__global__ void __launch_bounds__(kSharedBlock)
    interleaved_tables(const uint32_t* __restrict__ keys, const int32_t* __restrict__ values,
                       uint64_t rows, uint32_t k, uint32_t slice_slots, uint32_t slices,
                       unsigned* counts, unsigned long long* sums) {
  extern __shared__ unsigned words[];
  const uint32_t slice = blockIdx.x % slices;
  const uint32_t base = slice * slice_slots;
  const uint32_t slots = min(slice_slots, k - base);
  const SharedCountSums table(words, slots);
  table.clear();
  __syncthreads();
  for_each_row_of(keys, values, rows, blockIdx.x / slices, gridDim.x / slices,
                  [&](uint32_t key, int32_t v) {
                    if (key - base < slots) table.add(key - base, static_cast<unsigned>(v));
                  });
  __syncthreads();
  table.flush(base, slots, counts, sums);
}

// One peer at one K, ready to launch: `reset` runs before each run, outside the timing.
struct Launch {
  cudaError_t (*reset)(uint32_t k) = nullptr;
  cudaError_t (*run)(uint32_t k) = nullptr;
};

cudaError_t reset_tables(uint32_t k) {
  cudaError_t e = cudaMemsetAsync(g.counts.ptr, 0, size_t{k} * sizeof(unsigned));
  if (e != cudaSuccess) return e;
  return cudaMemsetAsync(g.sums.ptr, 0, size_t{k} * sizeof(unsigned long long));
}

cudaError_t no_reset(uint32_t) { return cudaSuccess; }

int g_grid_atomics = 0, g_grid_shared = 0;

cudaError_t run_atomics(uint32_t) {
  global_atomics<<<g_grid_atomics, kAtomicsBlock>>>(g.keys.as<uint32_t>(), g.values.as<int32_t>(),
                                                    g.rows, g.counts.as<unsigned>(),
                                                    g.sums.as<unsigned long long>());
  return cudaGetLastError();
}

cudaError_t run_packed(uint32_t k) {
  packed_atomics<<<g_grid_atomics, kAtomicsBlock>>>(g.keys.as<uint32_t>(), g.values.as<int32_t>(),
                                                    g.rows, g.sums.as<unsigned long long>(),
                                                    g.counts.as<unsigned>());
  packed_finish<<<(k + 255) / 256 < 1024 ? (k + 255) / 256 : 1024, 256>>>(
      k, g.sums.as<unsigned long long>(), g.counts.as<unsigned>());
  return cudaGetLastError();
}

cudaError_t run_packed_red(uint32_t k) {
  uint32_t count_bits = 1;
  while ((1ull << count_bits) <= g.rows) ++count_bits;
  packed_red_atomics<<<g_grid_atomics, kAtomicsBlock>>>(g.keys.as<uint32_t>(),
                                                        g.values.as<int32_t>(), g.rows, count_bits,
                                                        g.sums.as<unsigned long long>());
  packed_red_finish<<<(k + 255) / 256 < 1024 ? (k + 255) / 256 : 1024, 256>>>(
      k, count_bits, g.sums.as<unsigned long long>(), g.counts.as<unsigned>());
  return cudaGetLastError();
}

uint32_t g_l2_slice_slots = 0;  // the l2_sliced peer's keys a pass

cudaError_t run_l2_sliced(uint32_t k) {
  uint32_t count_bits = 1;
  while ((1ull << count_bits) <= g.rows) ++count_bits;
  for (uint32_t base = 0; base < k; base += g_l2_slice_slots) {
    l2_slice_atomics<<<g_grid_atomics, kAtomicsBlock>>>(
        g.keys.as<uint32_t>(), g.values.as<int32_t>(), g.rows, count_bits, base,
        std::min(g_l2_slice_slots, k - base), g.sums.as<unsigned long long>());
  }
  packed_red_finish<<<(k + 255) / 256 < 1024 ? (k + 255) / 256 : 1024, 256>>>(
      k, count_bits, g.sums.as<unsigned long long>(), g.counts.as<unsigned>());
  return cudaGetLastError();
}

uint32_t g_slice_slots = 0;  // the sliced peer's keys a pass

cudaError_t run_shared(uint32_t k) {
  shared_tables<<<g_grid_shared, kSharedBlock, size_t{3} * k * sizeof(unsigned)>>>(
      g.keys.as<uint32_t>(), g.values.as<int32_t>(), g.rows, 0, k, g.counts.as<unsigned>(),
      g.sums.as<unsigned long long>());
  return cudaGetLastError();
}

// One pass over every row per slice of g_slice_slots keys.
cudaError_t run_sliced(uint32_t k) {
  for (uint32_t base = 0; base < k; base += g_slice_slots) {
    const uint32_t slots = std::min(g_slice_slots, k - base);
    shared_tables<<<g_grid_shared, kSharedBlock, size_t{3} * slots * sizeof(unsigned)>>>(
        g.keys.as<uint32_t>(), g.values.as<int32_t>(), g.rows, base, slots, g.counts.as<unsigned>(),
        g.sums.as<unsigned long long>());
  }
  return cudaGetLastError();
}

int g_grid_interleaved = 0;

cudaError_t run_interleaved(uint32_t k) {
  const uint32_t slices = (k + g_slice_slots - 1) / g_slice_slots;
  interleaved_tables<<<g_grid_interleaved, kSharedBlock,
                       size_t{3} * std::min(g_slice_slots, k) * sizeof(unsigned)>>>(
      g.keys.as<uint32_t>(), g.values.as<int32_t>(), g.rows, k, g_slice_slots, slices,
      g.counts.as<unsigned>(), g.sums.as<unsigned long long>());
  return cudaGetLastError();
}

// Bits the radix sort must look at for keys in [0, k).
int key_bits(uint32_t k) {
  int bits = 1;
  while (bits < 32 && (uint64_t{1} << bits) < k) ++bits;
  return bits;
}

using CountSumIterator = thrust::transform_iterator<ToCountSum, const int32_t*>;

cudaError_t cub_sort_reduce(void* temp, size_t& temp_bytes, uint32_t k) {
  size_t sort_bytes = 0, reduce_bytes = 0;
  const int n = static_cast<int>(g.rows);
  cudaError_t e = cub::DeviceRadixSort::SortPairs(
      nullptr, sort_bytes, g.keys.as<const uint32_t>(), g.sorted_keys.as<uint32_t>(),
      g.values.as<const int32_t>(), g.sorted_values.as<int32_t>(), n, 0, key_bits(k));
  if (e != cudaSuccess) return e;
  CountSumIterator values(g.sorted_values.as<const int32_t>(), ToCountSum{});
  e = cub::DeviceReduce::ReduceByKey(nullptr, reduce_bytes, g.sorted_keys.as<const uint32_t>(),
                                     g.unique.as<uint32_t>(), values, g.aggregates.as<CountSum>(),
                                     g.runs.as<int>(), AddCountSum{}, n);
  if (e != cudaSuccess) return e;
  if (temp == nullptr) {
    temp_bytes = std::max(sort_bytes, reduce_bytes);
    return cudaSuccess;
  }
  e = cub::DeviceRadixSort::SortPairs(temp, sort_bytes, g.keys.as<const uint32_t>(),
                                      g.sorted_keys.as<uint32_t>(), g.values.as<const int32_t>(),
                                      g.sorted_values.as<int32_t>(), n, 0, key_bits(k));
  if (e != cudaSuccess) return e;
  return cub::DeviceReduce::ReduceByKey(
      temp, reduce_bytes, g.sorted_keys.as<const uint32_t>(), g.unique.as<uint32_t>(), values,
      g.aggregates.as<CountSum>(), g.runs.as<int>(), AddCountSum{}, n);
}

cudaError_t run_cub(uint32_t k) {
  size_t bytes = g.temp.bytes;
  return cub_sort_reduce(g.temp.ptr, bytes, k);
}

// Allocates what `peer` needs at K (outside the timing) and says how to launch it.
GroupbyPeerResult prepare(int peer, uint32_t k, Launch& launch) {
  int device = 0, sms = 0;
  PEER_CHECK(cudaGetDevice(&device));
  PEER_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
  if (peer != kPeerCub) {
    PEER_CHECK(g.counts.reserve(size_t{k} * sizeof(unsigned)));
    PEER_CHECK(g.sums.reserve(size_t{k} * sizeof(unsigned long long)));
    launch.reset = reset_tables;
  } else {
    launch.reset = no_reset;
  }
  int per_sm = 0;
  if (peer == kPeerAtomics) {
    PEER_CHECK(
        cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, global_atomics, kAtomicsBlock, 0));
    g_grid_atomics = std::max(1, per_sm) * sms;
    launch.run = run_atomics;
  } else if (peer == kPeerPacked) {
    PEER_CHECK(
        cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, packed_atomics, kAtomicsBlock, 0));
    g_grid_atomics = std::max(1, per_sm) * sms;
    launch.run = run_packed;
  } else if (peer == kPeerPackedRed) {
    PEER_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, packed_red_atomics,
                                                             kAtomicsBlock, 0));
    g_grid_atomics = std::max(1, per_sm) * sms;
    launch.run = run_packed_red;
  } else if (peer == kPeerL2Sliced) {
    // Slices of 8-byte words that fill at most a quarter of L2 (TALLY_PEER_L2_SLICE_BYTES
    // overrides it, to find where the table stops fitting).
    int l2 = 0;
    PEER_CHECK(cudaDeviceGetAttribute(&l2, cudaDevAttrL2CacheSize, device));
    const char* bytes_env = std::getenv("TALLY_PEER_L2_SLICE_BYTES");
    const uint64_t bytes = bytes_env ? std::strtoull(bytes_env, nullptr, 10) : uint64_t(l2) / 4;
    g_l2_slice_slots = 1;
    while (2 * uint64_t{g_l2_slice_slots} * 8 <= bytes) g_l2_slice_slots *= 2;
    if (k <= g_l2_slice_slots) return not_applicable("K's table fits one slice of L2");
    PEER_CHECK(
        cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, l2_slice_atomics, kAtomicsBlock, 0));
    g_grid_atomics = std::max(1, per_sm) * sms;
    launch.run = run_l2_sliced;
  } else if (peer == kPeerShared || peer == kPeerSliced) {
    int optin = 0;
    PEER_CHECK(cudaDeviceGetAttribute(&optin, cudaDevAttrMaxSharedMemoryPerBlockOptin, device));
    const size_t fit = static_cast<size_t>(optin) / 12;  // slots of one block's table
    g_slice_slots = 1;
    while (2 * size_t{g_slice_slots} <= fit) g_slice_slots *= 2;
    if (peer == kPeerSliced && k <= fit) return not_applicable("K fits one block's shared table");
    if (peer == kPeerSliced && k > 16 * g_slice_slots) return not_applicable("more than 16 passes");
    const size_t bytes = size_t{3} * std::min<size_t>(k, fit) * sizeof(unsigned);
    if (peer == kPeerShared && k > fit) {
      return not_applicable(std::to_string(k) + " slots take " + std::to_string(bytes) +
                            " bytes of shared memory, more than the " + std::to_string(optin) +
                            " a block may have");
    }
    PEER_CHECK(cudaFuncSetAttribute(shared_tables, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                    static_cast<int>(bytes)));
    PEER_CHECK(
        cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, shared_tables, kSharedBlock, bytes));
    if (per_sm == 0) return not_applicable("no block fits an SM with its table");
    g_grid_shared = per_sm * sms;
    launch.run = peer == kPeerShared ? run_shared : run_sliced;
  } else if (peer == kPeerInterleaved) {
    int optin = 0;
    PEER_CHECK(cudaDeviceGetAttribute(&optin, cudaDevAttrMaxSharedMemoryPerBlockOptin, device));
    const size_t fit = static_cast<size_t>(optin) / 12;
    g_slice_slots = 1;
    while (2 * size_t{g_slice_slots} <= fit) g_slice_slots *= 2;
    if (k <= fit) return not_applicable("K fits one block's shared table");
    const uint32_t slices = (k + g_slice_slots - 1) / g_slice_slots;
    const size_t bytes = size_t{3} * g_slice_slots * sizeof(unsigned);
    PEER_CHECK(cudaFuncSetAttribute(interleaved_tables, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                    static_cast<int>(bytes)));
    PEER_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, interleaved_tables,
                                                             kSharedBlock, bytes));
    if (per_sm == 0) return not_applicable("no block fits an SM with its table");
    const uint32_t resident = static_cast<uint32_t>(per_sm * sms);
    if (slices > resident) return not_applicable("more slices than resident blocks");
    g_grid_interleaved = static_cast<int>(resident / slices * slices);
    launch.run = run_interleaved;
  } else if (peer == kPeerPartition) {
    launch.run = run_partition;
    return prepare_partition(k, sms);
  } else if (peer == kPeerCluster) {
    int optin = 0;
    PEER_CHECK(cudaDeviceGetAttribute(&optin, cudaDevAttrMaxSharedMemoryPerBlockOptin, device));
    launch.run = run_cluster;
    return prepare_cluster(k, optin);
  } else {
    PEER_CHECK(g.sorted_keys.reserve(g.rows * sizeof(uint32_t)));
    PEER_CHECK(g.sorted_values.reserve(g.rows * sizeof(int32_t)));
    PEER_CHECK(g.unique.reserve(size_t{k} * sizeof(uint32_t)));
    PEER_CHECK(g.aggregates.reserve(size_t{k} * sizeof(CountSum)));
    PEER_CHECK(g.runs.reserve(sizeof(int)));
    size_t temp_bytes = 0;
    PEER_CHECK(cub_sort_reduce(nullptr, temp_bytes, k));
    PEER_CHECK(g.temp.reserve(temp_bytes));
    launch.run = run_cub;
  }
  GroupbyPeerResult ok{};
  ok.status = kPeerRan;
  return ok;
}

// prepare() after checking that the peer exists and its input is set.
GroupbyPeerResult ready(int peer, uint32_t k, Launch& launch) {
  if (peer < 0 || peer >= GROUPBY_PEER_COUNT) return not_applicable("no such peer");
  if (k == 0 || g.rows == 0 || g.keys.bytes < g.rows * 4) {
    return not_applicable("no keys or values set");
  }
  return prepare(peer, k, launch);
}

// Copies the result of the last run to the host: counts[k], sums[k].
GroupbyPeerResult download(int peer, uint32_t k, uint64_t* counts, int64_t* sums) {
  if (peer == kPeerCub) {
    int runs = 0;
    PEER_CHECK(cudaMemcpy(&runs, g.runs.ptr, sizeof runs, cudaMemcpyDeviceToHost));
    if (runs < 0 || static_cast<uint32_t>(runs) > k) {
      return failed("ReduceByKey's run count", cudaErrorInvalidValue);
    }
    std::vector<uint32_t> unique(static_cast<size_t>(runs));
    std::vector<CountSum> aggregates(static_cast<size_t>(runs));
    PEER_CHECK(cudaMemcpy(unique.data(), g.unique.ptr, unique.size() * sizeof(uint32_t),
                          cudaMemcpyDeviceToHost));
    PEER_CHECK(cudaMemcpy(aggregates.data(), g.aggregates.ptr, aggregates.size() * sizeof(CountSum),
                          cudaMemcpyDeviceToHost));
    std::fill(counts, counts + k, 0);
    std::fill(sums, sums + k, 0);
    for (size_t i = 0; i < unique.size(); ++i) {
      if (unique[i] >= k) return failed("a key out of range", cudaErrorInvalidValue);
      counts[unique[i]] = aggregates[i].count;
      sums[unique[i]] = aggregates[i].sum;
    }
  } else {
    std::vector<unsigned> n(k);
    PEER_CHECK(
        cudaMemcpy(n.data(), g.counts.ptr, n.size() * sizeof(unsigned), cudaMemcpyDeviceToHost));
    PEER_CHECK(cudaMemcpy(sums, g.sums.ptr, size_t{k} * sizeof(int64_t), cudaMemcpyDeviceToHost));
    std::copy(n.begin(), n.end(), counts);
  }
  GroupbyPeerResult ok{};
  ok.status = kPeerRan;
  return ok;
}

int upload(Buffer& buffer, const void* host, uint64_t rows) {
  if (rows >= (uint64_t{1} << 31)) {
    g_error = "the peers take fewer than 2^31 rows";
    return -1;
  }
  cudaError_t e = buffer.reserve(rows * 4);
  if (e == cudaSuccess) e = cudaMemcpy(buffer.ptr, host, rows * 4, cudaMemcpyHostToDevice);
  if (e != cudaSuccess) {
    g_error = std::string("uploading the peers' input: ") + cudaGetErrorString(e);
    return -1;
  }
  return 0;
}

}  // namespace

extern "C" {

const char* groupby_peer_name(int peer) {
  switch (peer) {
    case kPeerAtomics:
      return "atomics";
    case kPeerShared:
      return "shared";
    case kPeerCub:
      return "cub";
    case kPeerCluster:
      return "cluster";
    case kPeerPartition:
      return "partition";
    case kPeerSliced:
      return "sliced";
    case kPeerInterleaved:
      return "interleaved";
    case kPeerPacked:
      return "packed";
    case kPeerPackedRed:
      return "packed_red";
    case kPeerL2Sliced:
      return "l2_sliced";
  }
  return "?";
}

int groupby_peers_set_values(const int32_t* values, uint64_t rows) {
  if (upload(g.values, values, rows) != 0) return -1;
  g.rows = rows;
  return 0;
}

int groupby_peers_set_keys(const int32_t* keys, uint64_t rows) {
  if (rows != g.rows) {
    g_error = "the peers' keys and values differ in length";
    return -1;
  }
  return upload(g.keys, keys, rows);
}

const char* groupby_peers_error(void) { return g_error.c_str(); }

GroupbyPeerResult groupby_peer_check(int peer, uint32_t k, uint64_t* counts, int64_t* sums) {
  Launch launch;
  GroupbyPeerResult r = ready(peer, k, launch);
  if (r.status != kPeerRan) return r;
  PEER_CHECK(launch.reset(k));
  PEER_CHECK(launch.run(k));
  PEER_CHECK(cudaDeviceSynchronize());
  return download(peer, k, counts, sums);
}

GroupbyPeerResult groupby_peer_time(int peer, uint32_t k, int warmup, int reps) {
  Launch launch;
  GroupbyPeerResult r = ready(peer, k, launch);
  if (r.status != kPeerRan) return r;
  cudaEvent_t start = nullptr, stop = nullptr;
  PEER_CHECK(cudaEventCreate(&start));
  PEER_CHECK(cudaEventCreate(&stop));
  std::vector<float> ms;
  cudaError_t e = cudaSuccess;
  for (int i = 0; i < warmup + reps && e == cudaSuccess; ++i) {
    e = launch.reset(k);
    if (e == cudaSuccess) e = cudaEventRecord(start);
    if (e == cudaSuccess) e = launch.run(k);
    if (e == cudaSuccess) e = cudaEventRecord(stop);
    if (e == cudaSuccess) e = cudaEventSynchronize(stop);
    float t = 0;
    if (e == cudaSuccess) e = cudaEventElapsedTime(&t, start, stop);
    if (e == cudaSuccess && i >= warmup) ms.push_back(t);
  }
  cudaEventDestroy(start);
  cudaEventDestroy(stop);
  if (e != cudaSuccess) return failed(groupby_peer_name(peer), e);
  std::sort(ms.begin(), ms.end());
  r.ms = ms.empty() ? 0 : ms[ms.size() / 2];
  return r;
}

void groupby_peers_release(void) {
  for (Buffer* b : {&g.values, &g.keys, &g.counts, &g.sums, &g.sorted_keys, &g.sorted_values,
                    &g.unique, &g.aggregates, &g.runs, &g.temp}) {
    b->release();
  }
  release_partition_buffers();
  g.rows = 0;
}

}  // extern "C"
