// tally device library: ORDER BY ... LIMIT k over the Finalizer's result cells, chosen on
// the device so that only k groups cross the bus (a 15 M-group result is 700 MB of cells).
// One kernel, launched as passes: a pass over groups (or a list of them) leaves each block's
// first k in order; one block over those leaves the first k of all and copies their cells
// out. Over many groups a sample's first k come first, and a filter pass keeps only the groups
// that order no later than the sample's k-th, for the passes to choose from
// (runtime/gpu/device_top_k.cpp). The order is total (ties go to the lower group index), so
// the rows are those a stable sort of every group would put first, as the CPU engine does.
#pragma once

#include "tally_output_rows.cuh"
#include "tally_types.cuh"

namespace tally {

// The most rows a device top-k keeps: each thread holds this many candidates.
constexpr u32 kTopKMax = 32;
constexpr u64 kNoGroup = 0xFFFFFFFFFFFFFFFFull;

// The Finalizer's output: group g's key i at keys[g * key_count + i], its aggregate i at
// values[g * value_count + i], each beside a NULL byte; and the run's ORDER BY flags, two
// bits a key (compare_order_cell).
struct ResultCellsRef {
  const i128* keys;
  const u8* key_nulls;
  const i128* values;
  const u8* value_nulls;
  u64 key_count, value_count;
  u32 order_flags;
};

// How one ORDER BY key's cells compare, as the host reads them (runtime/gpu/gpu_engine.cpp
// from_cell): integers, DATEs and BOOLEANs as the low 64 bits, DECIMALs as all 128, REAL and
// DOUBLE as the double in the low word, NaN above every number and equal to itself
// (PostgreSQL).
enum OrderCellKind { kOrderI64, kOrderI128, kOrderF64 };

TALLY_DEV int compare_doubles(f64 a, f64 b) {
  const bool na = a != a, nb = b != b;
  if (na || nb) return na == nb ? 0 : (na ? 1 : -1);
  return a < b ? -1 : (a > b ? 1 : 0);
}

template <typename T>
TALLY_DEV int three_way(T x, T y) {
  return x < y ? -1 : (x > y ? 1 : 0);
}

// One ORDER BY key over groups a and b: <0, 0 or >0 in ORDER BY order. `order` is the key's
// two bits of the run's order flags: 1 descending, 2 NULLs first (set per run, not compiled
// in, as the default_null_order setting may move them between runs of one program).
template <OrderCellKind kKind>
TALLY_DEV int compare_order_cell(const i128* cells, const u8* nulls, u64 width, u64 index, u64 a,
                                 u64 b, u32 order) {
  const bool descending = (order & 1) != 0, nulls_first = (order & 2) != 0;
  const bool a_null = nulls[a * width + index] != 0, b_null = nulls[b * width + index] != 0;
  if (a_null || b_null) {
    if (a_null && b_null) return 0;
    return (a_null == nulls_first) ? -1 : 1;
  }
  const i128 x = cells[a * width + index], y = cells[b * width + index];
  int c;
  if (kKind == kOrderF64) {
    c = compare_doubles(__longlong_as_double((i64)(u64)x), __longlong_as_double((i64)(u64)y));
  } else if (kKind == kOrderI64) {
    c = three_way((i64)(u64)x, (i64)(u64)y);
  } else {
    c = three_way(x, y);
  }
  return descending ? -c : c;
}

// Order::compare(cells, a, b) is the query's ORDER BY over two groups (generated, one
// compare_order_cell a key).
template <class Order>
TALLY_DEV bool group_before(const ResultCellsRef& cells, u64 a, u64 b) {
  if (b == kNoGroup) return a != kNoGroup;
  if (a == kNoGroup) return false;
  const int c = Order::compare(cells, a, b);
  return c != 0 ? c < 0 : a < b;
}

// This thread's first `k` groups in order, kept sorted in `list` (unused entries kNoGroup).
template <class Order>
TALLY_DEV void keep_if_first(const ResultCellsRef& cells, u64* list, u32 k, u64 group) {
  if (!group_before<Order>(cells, group, list[k - 1])) return;
  u32 at = k - 1;
  while (at > 0 && group_before<Order>(cells, group, list[at - 1])) {
    list[at] = list[at - 1];
    --at;
  }
  list[at] = group;
}

// The block's first `k` groups of its threads' sorted lists, by k rounds of a block-wide
// minimum over the lists' heads; written to out[0..k) (kNoGroup past the last group).
template <class Order>
TALLY_DEV void block_first_k(const ResultCellsRef& cells, const u64* list, u32 k, u64* out) {
  __shared__ u64 heads[1024];
  __shared__ u32 owners[1024];
  u32 next = 0;
  for (u32 round = 0; round < k; ++round) {
    heads[threadIdx.x] = next < k ? list[next] : kNoGroup;
    owners[threadIdx.x] = threadIdx.x;
    __syncthreads();
    for (u32 half = blockDim.x / 2; half > 0; half /= 2) {
      if (threadIdx.x < half &&
          group_before<Order>(cells, heads[threadIdx.x + half], heads[threadIdx.x])) {
        heads[threadIdx.x] = heads[threadIdx.x + half];
        owners[threadIdx.x] = owners[threadIdx.x + half];
      }
      __syncthreads();
    }
    if (threadIdx.x == 0) out[round] = heads[0];
    if (owners[0] == threadIdx.x && heads[0] != kNoGroup) ++next;
    __syncthreads();
  }
}

// One pass: the groups i * stride for i in [0, groups) (or the `candidates`, when not null)
// reduced to each block's first `k`, at out[blockIdx.x * k ..]. blockDim.x is a power of two
// <= 1024.
template <class Order>
TALLY_DEV void top_k_pass(const ResultCellsRef& cells, u64 groups, const u64* candidates,
                          u64 stride, u32 k, u64* out) {
  u64 list[kTopKMax];
  for (u32 i = 0; i < k; ++i) list[i] = kNoGroup;
  for (u64 i = global_thread_index(); i < groups; i += grid_stride()) {
    const u64 group = candidates ? candidates[i] : i * stride;
    if (group != kNoGroup) keep_if_first<Order>(cells, list, k, group);
  }
  block_first_k<Order>(cells, list, k, out + (u64)blockIdx.x * k);
}

// Every group that orders no later than `threshold`, appended to out (the first `capacity` of
// them; *count counts all). Where the threshold is the k-th of a sample, these include the
// first k of all, and one compare a group against the same cells replaces the per-thread lists'
// chains of dependent reads (2.1 ms for 15 M groups on an H200, bench/RESULTS.md session 40).
template <class Order>
TALLY_DEV void top_k_filter(const ResultCellsRef& cells, u64 groups, u64 threshold, u64* out,
                            u64* count, u64 capacity) {
  // Block-uniform rounds, so that every lane of a warp reaches the ballot.
  for (u64 first = (u64)blockIdx.x * blockDim.x; first < groups; first += grid_stride()) {
    const u64 group = first + threadIdx.x;
    const bool kept =
        group < groups && (group == threshold || group_before<Order>(cells, group, threshold));
    WarpOutputRows rows = WarpOutputRows::claim((u32)kept, count);
    const u64 at = rows.take((u32)kept, 0);
    if (kept && at < capacity) out[at] = group;
  }
}

// After the last pass: the chosen groups' cells, packed in order, for the host to read.
TALLY_DEV void gather_chosen(const ResultCellsRef& cells, const u64* chosen, u32 k, i128* keys,
                             u8* key_nulls, i128* values, u8* value_nulls) {
  for (u32 r = threadIdx.x; r < k; r += blockDim.x) {
    const u64 g = chosen[r];
    if (g == kNoGroup) continue;
    for (u64 i = 0; i < cells.key_count; ++i) {
      keys[r * cells.key_count + i] = cells.keys[g * cells.key_count + i];
      key_nulls[r * cells.key_count + i] = cells.key_nulls[g * cells.key_count + i];
    }
    for (u64 i = 0; i < cells.value_count; ++i) {
      values[r * cells.value_count + i] = cells.values[g * cells.value_count + i];
      value_nulls[r * cells.value_count + i] = cells.value_nulls[g * cells.value_count + i];
    }
  }
}

// The generated tally_top_k kernel's argument words, in this order.
enum TopKArg : u32 {
  kTopKKeys,
  kTopKKeyNulls,
  kTopKValues,
  kTopKValueNulls,
  kTopKKeyCount,
  kTopKValueCount,
  kTopKGroups,      // groups, or candidates when kTopKCandidates is set
  kTopKCandidates,  // 0 on the first pass
  kTopKK,
  kTopKOut,         // u64 per block per row
  kTopKGatherKeys,  // 0 but on the last pass: where the chosen groups' cells go
  kTopKGatherKeyNulls,
  kTopKGatherValues,
  kTopKGatherValueNulls,
  kTopKOrderFlags,
  kTopKSampleStride,    // without candidates: the pass reads every stride-th group
  kTopKThreshold,       // 0, or where the filter pass reads its threshold group
  kTopKCandidateCount,  // the filter pass: its count of the groups kept
  kTopKCandidateCapacity,
  kTopKArgCount
};

template <class Order>
TALLY_DEV void top_k_kernel(const u64* args) {
  const ResultCellsRef cells = {(const i128*)args[kTopKKeys],
                                (const u8*)args[kTopKKeyNulls],
                                (const i128*)args[kTopKValues],
                                (const u8*)args[kTopKValueNulls],
                                args[kTopKKeyCount],
                                args[kTopKValueCount],
                                (u32)args[kTopKOrderFlags]};
  const u32 k = (u32)args[kTopKK];
  u64* const out = (u64*)args[kTopKOut];
  const u64* const threshold = (const u64*)args[kTopKThreshold];
  if (threshold != nullptr) {
    top_k_filter<Order>(cells, args[kTopKGroups], *threshold, out, (u64*)args[kTopKCandidateCount],
                        args[kTopKCandidateCapacity]);
    return;
  }
  top_k_pass<Order>(cells, args[kTopKGroups], (const u64*)args[kTopKCandidates],
                    args[kTopKSampleStride], k, out);
  if (args[kTopKGatherKeys] == 0) return;
  __syncthreads();
  gather_chosen(cells, out, k, (i128*)args[kTopKGatherKeys], (u8*)args[kTopKGatherKeyNulls],
                (i128*)args[kTopKGatherValues], (u8*)args[kTopKGatherValueNulls]);
}

}  // namespace tally
