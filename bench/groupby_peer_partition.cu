// The partition peer (bench/groupby_peers.h, kPeerPartition): rows radix-partitioned by the
// key's high bits into (key, value) pairs, then merged partition by partition in shared
// tables: what a sort- or partition-based GROUP BY costs against global atomics.
#include <algorithm>
#include <cstdlib>
#include <cub/block/block_scan.cuh>

#include "bench/groupby_peer_support.cuh"

namespace groupby_peers_detail {

namespace {

Buffer partitioned, histogram, starts, cursors;

constexpr int kPartitionBlock = 512;
constexpr int kPartitionItems = 16;        // rows a thread holds from counting to scattering
constexpr uint32_t kPartitionShift = 14;   // a partition is 2^14 keys: 192 KiB of shared table
constexpr uint32_t kMaxPartitions = 1024;  // the scan is one block's
constexpr int kPartitionTile = kPartitionBlock * kPartitionItems;

// Adds one to counts[p] for each lane of the warp that calls it with p, one shared atomic per
// distinct p (a few partitions would otherwise serialize every lane on one counter); returns
// this lane's place among them.
__device__ __forceinline__ unsigned warp_rank_add(unsigned* counts, uint32_t p) {
  const unsigned peers = __match_any_sync(__activemask(), p);
  const int leader = __ffs(peers) - 1;
  const unsigned lane = threadIdx.x & 31;
  unsigned base = 0;
  if (static_cast<int>(lane) == leader) base = atomicAdd(counts + p, __popc(peers));
  base = __shfl_sync(peers, base, leader);
  return base + __popc(peers & ((1u << lane) - 1));
}

// Rows per partition (key >> kPartitionShift), counted in shared memory per block.
__global__ void __launch_bounds__(kPartitionBlock)
    partition_histogram(const uint32_t* __restrict__ keys, uint64_t rows, uint32_t partitions,
                        unsigned* histogram) {
  extern __shared__ unsigned counts[];
  for (uint32_t p = threadIdx.x; p < partitions; p += blockDim.x) counts[p] = 0;
  __syncthreads();
  const uint64_t stride = static_cast<uint64_t>(gridDim.x) * blockDim.x;
  for (uint64_t i = static_cast<uint64_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < rows;
       i += stride) {
    warp_rank_add(counts, __ldg(keys + i) >> kPartitionShift);
  }
  __syncthreads();
  for (uint32_t p = threadIdx.x; p < partitions; p += blockDim.x) {
    if (counts[p] != 0) atomicAdd(histogram + p, counts[p]);
  }
}

// Each partition's first row (starts[partitions] = rows), and the scatter's cursors.
__global__ void __launch_bounds__(kMaxPartitions)
    partition_starts(const unsigned* histogram, uint32_t partitions, unsigned* starts,
                     unsigned* cursors) {
  using Scan = cub::BlockScan<unsigned, kMaxPartitions>;
  __shared__ typename Scan::TempStorage temp;
  const unsigned count = threadIdx.x < partitions ? histogram[threadIdx.x] : 0;
  unsigned start = 0, total = 0;
  Scan(temp).ExclusiveSum(count, start, total);
  if (threadIdx.x < partitions) starts[threadIdx.x] = cursors[threadIdx.x] = start;
  if (threadIdx.x == 0) starts[partitions] = total;
}

// Per tile: each row's rank in its partition within the block (a shared atomic), one global
// reservation per partition and block, then (key, value) pairs written to their places.
__global__ void __launch_bounds__(kPartitionBlock)
    partition_scatter(const uint32_t* __restrict__ keys, const int32_t* __restrict__ values,
                      uint64_t rows, uint32_t partitions, unsigned* cursors, uint2* out) {
  extern __shared__ unsigned shared[];
  unsigned* counts = shared;
  unsigned* base = shared + partitions;
  for (uint64_t tile = static_cast<uint64_t>(blockIdx.x) * kPartitionTile; tile < rows;
       tile += static_cast<uint64_t>(gridDim.x) * kPartitionTile) {
    for (uint32_t p = threadIdx.x; p < partitions; p += blockDim.x) counts[p] = 0;
    __syncthreads();
    uint32_t key[kPartitionItems];
    int32_t value[kPartitionItems];
    unsigned rank[kPartitionItems];
#pragma unroll
    for (int j = 0; j < kPartitionItems; ++j) {
      const uint64_t i = tile + static_cast<uint64_t>(j) * blockDim.x + threadIdx.x;
      if (i < rows) {
        key[j] = __ldg(keys + i);
        value[j] = __ldg(values + i);
        rank[j] = warp_rank_add(counts, key[j] >> kPartitionShift);
      }
    }
    __syncthreads();
    for (uint32_t p = threadIdx.x; p < partitions; p += blockDim.x) {
      base[p] = counts[p] != 0 ? atomicAdd(cursors + p, counts[p]) : 0;
    }
    __syncthreads();
#pragma unroll
    for (int j = 0; j < kPartitionItems; ++j) {
      const uint64_t i = tile + static_cast<uint64_t>(j) * blockDim.x + threadIdx.x;
      if (i < rows) {
        out[base[key[j] >> kPartitionShift] + rank[j]] =
            make_uint2(key[j], static_cast<uint32_t>(value[j]));
      }
    }
    __syncthreads();
  }
}

// Each block takes `chunk` consecutive pairs (they are in partition order, so the work is
// even whatever the skew) and merges them partition by partition into a shared table of the
// partition's 2^14 keys (as shared_tables), flushing and clearing it at each partition's end.
__global__ void __launch_bounds__(kSharedBlock)
    partition_aggregate(const uint2* __restrict__ pairs, const unsigned* starts, unsigned rows,
                        unsigned chunk, unsigned* counts, unsigned long long* sums) {
  extern __shared__ unsigned words[];
  const SharedCountSums table(words, 1u << kPartitionShift);
  table.clear();
  __syncthreads();
  const unsigned last = min(rows, (blockIdx.x + 1) * chunk);
  for (unsigned first = blockIdx.x * chunk; first < last;) {
    const uint32_t partition = pairs[first].x >> kPartitionShift;
    const unsigned end = min(last, starts[partition + 1]);
    for (unsigned i = first + threadIdx.x; i < end; i += blockDim.x) {
      const uint2 pair = pairs[i];
      table.add(pair.x & (table.slots - 1), pair.y);
    }
    __syncthreads();
    table.flush(partition << kPartitionShift, table.slots, counts, sums);
    __syncthreads();
    first = end;
  }
}

int g_grid_partition = 0, g_aggregate_blocks = 0;

uint32_t partitions_of(uint32_t k) { return (k + (1u << kPartitionShift) - 1) >> kPartitionShift; }

// GROUPBY_PEER_STAGES=1 prints each stage's time of the partition peer to stderr.
struct StageClock {
  bool on = std::getenv("GROUPBY_PEER_STAGES") != nullptr;
  cudaEvent_t marks[4] = {};
  void mark(int i) {
    if (!on) return;
    if (!marks[i]) cudaEventCreate(&marks[i]);
    cudaEventRecord(marks[i]);
  }
  void print(uint32_t k) {
    if (!on) return;
    cudaEventSynchronize(marks[3]);
    float ms[3] = {};
    for (int i = 0; i < 3; ++i) cudaEventElapsedTime(&ms[i], marks[i], marks[i + 1]);
    std::fprintf(stderr, "partition K=%u: histogram+scan %.3f ms, scatter %.3f, merge %.3f\n", k,
                 ms[0], ms[1], ms[2]);
  }
} g_stages;

}  // namespace

cudaError_t run_partition(uint32_t k) {
  const uint32_t partitions = partitions_of(k);
  const size_t table_bytes = size_t{3} * (1u << kPartitionShift) * sizeof(unsigned);
  g_stages.mark(0);
  cudaError_t e = cudaMemsetAsync(histogram.ptr, 0, partitions * sizeof(unsigned));
  if (e != cudaSuccess) return e;
  partition_histogram<<<g_grid_partition, kPartitionBlock, partitions * sizeof(unsigned)>>>(
      g.keys.as<uint32_t>(), g.rows, partitions, histogram.as<unsigned>());
  partition_starts<<<1, kMaxPartitions>>>(histogram.as<unsigned>(), partitions,
                                          starts.as<unsigned>(), cursors.as<unsigned>());
  g_stages.mark(1);
  partition_scatter<<<g_grid_partition, kPartitionBlock, 2 * partitions * sizeof(unsigned)>>>(
      g.keys.as<uint32_t>(), g.values.as<int32_t>(), g.rows, partitions, cursors.as<unsigned>(),
      partitioned.as<uint2>());
  g_stages.mark(2);
  const auto rows = static_cast<unsigned>(g.rows);
  const unsigned chunk = (rows + g_aggregate_blocks - 1) / g_aggregate_blocks;
  partition_aggregate<<<(rows + chunk - 1) / chunk, kSharedBlock, table_bytes>>>(
      partitioned.as<uint2>(), starts.as<unsigned>(), rows, chunk, g.counts.as<unsigned>(),
      g.sums.as<unsigned long long>());
  g_stages.mark(3);
  g_stages.print(k);
  return cudaGetLastError();
}

// Buffers and grids of the partition peer at K: n/a where one shared table holds K already.
GroupbyPeerResult prepare_partition(uint32_t k, int sms) {
  if (k <= (1u << kPartitionShift)) return not_applicable("K fits one block's shared table");
  if (partitions_of(k) > kMaxPartitions) return not_applicable("more than 1,024 partitions");
  const uint32_t partitions = partitions_of(k);
  PEER_CHECK(partitioned.reserve(g.rows * sizeof(uint2)));
  PEER_CHECK(histogram.reserve(partitions * sizeof(unsigned)));
  PEER_CHECK(starts.reserve((partitions + 1) * sizeof(unsigned)));
  PEER_CHECK(cursors.reserve(partitions * sizeof(unsigned)));
  const int table_bytes = static_cast<int>(3 * (1u << kPartitionShift) * sizeof(unsigned));
  PEER_CHECK(cudaFuncSetAttribute(partition_aggregate, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                  table_bytes));
  int per_sm = 0;
  PEER_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, partition_aggregate,
                                                           kSharedBlock, table_bytes));
  if (per_sm == 0) return not_applicable("no block fits an SM with its table");
  g_aggregate_blocks = 2 * per_sm * sms;  // two waves of equal shares of the rows
  PEER_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, partition_scatter,
                                                           kPartitionBlock, 2 * partitions * 4));
  g_grid_partition = std::max(1, per_sm) * sms;
  GroupbyPeerResult ok{};
  ok.status = kPeerRan;
  std::snprintf(ok.message, sizeof ok.message, "%u partitions, %d merging blocks", partitions,
                g_aggregate_blocks);
  return ok;
}

void release_partition_buffers() {
  for (Buffer* b : {&partitioned, &histogram, &starts, &cursors}) b->release();
}

}  // namespace groupby_peers_detail
