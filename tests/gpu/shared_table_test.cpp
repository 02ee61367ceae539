// templates/tally_table_shared.cuh: block-private shared-memory tables flushed once per
// block into the global table, with rows that do not fit (full shared table, or the key
// equal to the shared EMPTY value) taking the global path. Per-key sums and counts equal a
// CPU map in every regime: all keys fit, heavy overflow, and a table over 48 KiB.
#include <doctest/doctest.h>

#include <algorithm>
#include <map>
#include <random>

#include "tests/gpu/gpu_support.h"
#include "tests/unit/support/device_refs.h"

namespace tally::cuda::test {
namespace {

const char* const kSharedKernels = R"cuda(
#define SHARED_THEN_GLOBAL(K)                                                                    \
  extern "C" __global__ void shared_then_global_##K(                                           \
      GlobalTableRef global, const K* keys, const i64* values, u64 n, u32 capacity,            \
      u32 max_probes, i64* global_sums, u64* global_counts, u64* fallback_rows) {              \
    extern __shared__ __align__(16) char shared_bytes[];                                      \
    SharedArena arena{shared_bytes};                                                          \
    const SharedTableRef<K> local{arena.take<K>(capacity), capacity, max_probes};              \
    i64* sums = arena.take<i64>(capacity);                                                     \
    u32* counts = arena.take<u32>(capacity);                                                   \
    local.clear();                                                                             \
    shared_fill<i64>(sums, capacity, 0);                                                       \
    shared_fill<u32>(counts, capacity, 0u);                                                    \
    __syncthreads();                                                                           \
    for (u64 i = global_thread_index(); i < n; i += grid_stride()) {                           \
      const i32 slot = local.insert_or_find(keys[i]);                                          \
      if (slot != SharedTableRef<K>::kNoSlot) {                                                \
        atomic_add(&sums[slot], values[i]);                                                    \
        atomic_add(&counts[slot], 1u);                                                         \
        continue;                                                                              \
      }                                                                                        \
      atomicAdd(fallback_rows, 1ull);                                                          \
      const i64 g = global.insert_or_find(keys[i]);                                            \
      if (g == GlobalTableRef::kNoSlot) continue;                                              \
      atomic_add(&global_sums[g], values[i]);                                                  \
      atomicAdd(&global_counts[g], 1ull);                                                      \
    }                                                                                          \
    __syncthreads();                                                                           \
    local.for_each_occupied([&](u32 slot, K key) {                                             \
      const i64 g = global.insert_or_find(key);                                                \
      if (g == GlobalTableRef::kNoSlot) return;                                                \
      atomic_add(&global_sums[g], sums[slot]);                                                 \
      atomicAdd(&global_counts[g], (u64)counts[slot]);                                         \
    });                                                                                        \
  }
SHARED_THEN_GLOBAL(u32)
SHARED_THEN_GLOBAL(u64)

extern "C" __global__ void clear_table(GlobalTableRef table) { global_table_clear(table); }
)cuda";

Module& shared_module() { return test_module(kSharedKernels, "shared_table_test.cu"); }

constexpr uint32_t kBlock = 256;

struct Group {
  uint64_t count = 0;
  int64_t sum = 0;
  bool operator==(const Group&) const = default;
};

struct SharedRun {
  uint32_t status = 0;
  uint64_t fallback_rows = 0;
  std::map<uint64_t, Group> groups;
};

template <class K>
SharedRun run_shared(const std::vector<K>& keys, const std::vector<int64_t>& values,
                     uint32_t capacity, uint32_t max_probes) {
  const uint64_t n = keys.size();
  const uint64_t global_capacity = 4 * n + 16;
  DeviceBuffer table_keys((global_capacity + 1) * sizeof(uint64_t), "global keys");
  DeviceBuffer status = filled_device<uint32_t>(1, 0, "status");
  DeviceBuffer sums = filled_device<int64_t>(global_capacity + 1, 0, "sums");
  DeviceBuffer counts = filled_device<uint64_t>(global_capacity + 1, 0, "counts");
  DeviceBuffer fallback = filled_device<uint64_t>(1, 0, "fallback rows");
  DeviceBuffer key_column = to_device(keys, "keys"), value_column = to_device(values, "values");
  const GlobalTableRef table{table_keys.ptr(), global_capacity, global_capacity, status.ptr(), 0};
  launch(shared_module().kernel("clear_table"), {grid_for(global_capacity + 1), kBlock}, table);
  const uint32_t shared_bytes = capacity * (sizeof(K) + 8 + 4) + 32;  // + alignment padding
  const char* kernel = sizeof(K) == 4 ? "shared_then_global_u32" : "shared_then_global_u64";
  launch(shared_module().kernel(kernel), {grid_for(n, kBlock), kBlock, shared_bytes}, table,
         key_column.ptr(), value_column.ptr(), n, capacity, max_probes, sums.ptr(), counts.ptr(),
         fallback.ptr());
  SharedRun run;
  run.status = from_device<uint32_t>(status)[0];
  run.fallback_rows = from_device<uint64_t>(fallback)[0];
  const std::vector<int64_t> slot_sums = from_device<int64_t>(sums);
  const std::vector<uint64_t> slot_counts = from_device<uint64_t>(counts);
  for (const auto& [slot, key] : occupied_slots(table_keys)) {
    run.groups[key] = {slot_counts[slot], slot_sums[slot]};
  }
  return run;
}

template <class K>
std::map<uint64_t, Group> cpu_groups(const std::vector<K>& keys,
                                     const std::vector<int64_t>& values) {
  std::map<uint64_t, Group> groups;
  for (size_t i = 0; i < keys.size(); ++i) {
    Group& g = groups[keys[i]];
    ++g.count;
    g.sum += values[i];
  }
  return groups;
}

// `distinct` random keys (the shared EMPTY value among them), rows drawn uniformly.
template <class K>
std::vector<K> random_keys(size_t rows, size_t distinct, uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<K> pool = {static_cast<K>(~K{0})};
  while (pool.size() < distinct) pool.push_back(static_cast<K>(rng()));
  std::vector<K> keys(rows);
  for (K& key : keys) key = pool[rng() % distinct];
  return keys;
}

std::vector<int64_t> random_values(size_t rows) {
  std::mt19937_64 rng(42);
  std::vector<int64_t> values(rows);
  for (int64_t& v : values) v = static_cast<int64_t>(rng() % 2000001) - 1000000;
  return values;
}

}  // namespace

TEST_CASE("shared-memory table: few keys fit on chip and flush once per block") {
  const size_t rows = 1 << 20;
  const auto keys = random_keys<uint32_t>(rows, 50, 1);
  const auto values = random_values(rows);
  const SharedRun run = run_shared(keys, values, 128, 128);
  CHECK(run.status == 0);
  CHECK(run.groups == cpu_groups(keys, values));
  // Only the rows whose key is the shared EMPTY value took the global path.
  const uint64_t empty_rows = std::count(keys.begin(), keys.end(), ~uint32_t{0});
  CHECK(empty_rows > 0);
  CHECK(run.fallback_rows == empty_rows);
}

TEST_CASE("shared-memory table: overflowing rows fall back to the global table") {
  const size_t rows = 1 << 20;
  const auto keys = random_keys<uint32_t>(rows, 5000, 2);
  const auto values = random_values(rows);
  const SharedRun run = run_shared(keys, values, 128, 8);
  CHECK(run.status == 0);
  CHECK(run.fallback_rows > rows / 2);  // 5000 keys cannot share 128 slots
  CHECK(run.groups == cpu_groups(keys, values));
}

TEST_CASE("shared-memory table with 64-bit keys beyond 48 KiB of shared memory") {
  const size_t rows = 1 << 19;
  const auto keys = random_keys<uint64_t>(rows, 3000, 3);
  const auto values = random_values(rows);
  const uint32_t capacity = 4096;  // 4096 * 20 bytes = 80 KiB: needs the opt-in limit
  REQUIRE(test_device().profile().shared_per_block_optin >= capacity * 20 + 32);
  const SharedRun run = run_shared(keys, values, capacity, capacity);
  CHECK(run.status == 0);
  CHECK(run.groups == cpu_groups(keys, values));
}

}  // namespace tally::cuda::test
