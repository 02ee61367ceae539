// templates/tally_table_global.cuh: per-key counts from the GPU table equal
// std::unordered_map's, the EMPTY-valued key lands in the side slot, lookups agree, and a
// table too small raises the full flag (the host then grows it and reruns).
#include <doctest/doctest.h>

#include <algorithm>
#include <random>
#include <unordered_map>
#include <unordered_set>

#include "tests/gpu/gpu_support.h"
#include "tests/unit/support/device_refs.h"

namespace tally::cuda::test {
namespace {

const char* const kGlobalTableKernels = R"cuda(
extern "C" __global__ void clear_table(GlobalTableRef table) { global_table_clear(table); }

extern "C" __global__ void count_keys(GlobalTableRef table, const u64* keys, u64 n, u64* counts) {
  for (u64 i = global_thread_index(); i < n; i += grid_stride()) {
    if (status_raised(table.status)) return;  // the host reruns with a larger table
    const i64 slot = table.insert_or_find(keys[i]);
    if (slot != GlobalTableRef::kNoSlot) atomicAdd(&counts[slot], 1ull);
  }
}

extern "C" __global__ void find_keys(GlobalTableRef table, const u64* keys, u64 n, i64* slots) {
  for (u64 i = global_thread_index(); i < n; i += grid_stride()) slots[i] = table.find(keys[i]);
}
)cuda";

Module& table_module() { return test_module(kGlobalTableKernels, "global_table_test.cu"); }

constexpr uint32_t kBlock = 256;

// A key pool with the values most likely to break a table (EMPTY itself, 0, 1, EMPTY - 1)
// and random keys, and rows drawn from it with a skew, so some keys are hot.
struct KeyRows {
  std::vector<uint64_t> distinct;
  std::vector<uint64_t> rows;
};

KeyRows make_rows(size_t distinct_keys, size_t rows, uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::unordered_set<uint64_t> seen = {kEmptyKey64, 0, 1, kEmptyKey64 - 1};
  KeyRows out;
  out.distinct.assign(seen.begin(), seen.end());
  while (out.distinct.size() < distinct_keys) {
    const uint64_t key = rng();
    if (seen.insert(key).second) out.distinct.push_back(key);
  }
  out.rows.resize(rows);
  for (size_t i = 0; i < rows; ++i) {
    // Every key appears at least once; after that, squaring a uniform draw skews the choice
    // toward the first keys.
    if (i < distinct_keys) {
      out.rows[i] = out.distinct[i];
    } else {
      const double u = std::uniform_real_distribution<double>(0, 1)(rng);
      out.rows[i] = out.distinct[static_cast<size_t>(u * u * distinct_keys)];
    }
  }
  std::shuffle(out.rows.begin(), out.rows.end(), rng);
  return out;
}

struct TableRun {
  uint32_t status = 0;
  uint64_t group_count = 0;
  std::unordered_map<uint64_t, uint64_t> counts;  // from the table's occupied slots
  bool duplicate_key = false;
  GlobalTableRef ref;
  DeviceBuffer keys, status_word, group_counter;
};

// One Init + Scan over `rows` with a table of `capacity` slots.
TableRun run_table(const std::vector<uint64_t>& rows, uint64_t capacity, uint64_t max_probes) {
  TableRun run;
  run.keys = DeviceBuffer((capacity + 1) * sizeof(uint64_t), "hash table keys");
  run.status_word = filled_device<uint32_t>(1, 0, "table status");
  run.group_counter = filled_device<uint64_t>(1, 0, "group counter");
  DeviceBuffer counts = filled_device<uint64_t>(capacity + 1, 0, "per-slot counts");
  DeviceBuffer input = to_device(rows, "keys");
  run.ref = {run.keys.ptr(), capacity, max_probes, run.status_word.ptr(), run.group_counter.ptr()};
  const uint64_t n = rows.size();
  launch(table_module().kernel("clear_table"), {grid_for(capacity + 1, kBlock), kBlock}, run.ref);
  launch(table_module().kernel("count_keys"), {grid_for(n, kBlock), kBlock}, run.ref, input.ptr(),
         n, counts.ptr());
  run.status = from_device<uint32_t>(run.status_word)[0];
  run.group_count = from_device<uint64_t>(run.group_counter)[0];
  const std::vector<uint64_t> slot_counts = from_device<uint64_t>(counts);
  for (const auto& [slot, key] : occupied_slots(run.keys)) {
    run.duplicate_key |= !run.counts.emplace(key, slot_counts[slot]).second;
  }
  return run;
}

std::unordered_map<uint64_t, uint64_t> cpu_counts(const std::vector<uint64_t>& rows) {
  std::unordered_map<uint64_t, uint64_t> counts;
  for (uint64_t key : rows) ++counts[key];
  return counts;
}

}  // namespace

TEST_CASE("global hash table counts every key like std::unordered_map") {
  for (size_t distinct : {4ul, 100ul, 50000ul}) {
    INFO("distinct keys: " << distinct);
    const KeyRows data = make_rows(distinct, 1 << 20, distinct);
    const uint64_t capacity = distinct * 2;
    const TableRun run = run_table(data.rows, capacity, capacity);
    CHECK(run.status == 0);
    CHECK_FALSE(run.duplicate_key);
    CHECK(run.group_count == distinct);
    CHECK(run.counts == cpu_counts(data.rows));
    CHECK(run.counts.count(kEmptyKey64) == 1);  // the side slot took the EMPTY-valued key

    // Lookups: every inserted key is found in a slot holding it; absent keys are not.
    std::vector<uint64_t> probes = data.distinct;
    std::mt19937_64 rng(7);
    std::vector<uint64_t> absent;
    while (absent.size() < 1000) {
      const uint64_t key = rng();
      if (!run.counts.count(key)) absent.push_back(key);
    }
    probes.insert(probes.end(), absent.begin(), absent.end());
    DeviceBuffer probe_keys = to_device(probes, "lookup keys");
    DeviceBuffer slots(probes.size() * sizeof(int64_t), "lookup results");
    launch(table_module().kernel("find_keys"), {grid_for(probes.size(), kBlock), kBlock}, run.ref,
           probe_keys.ptr(), uint64_t{probes.size()}, slots.ptr());
    const std::vector<int64_t> found = from_device<int64_t>(slots);
    const std::vector<uint64_t> table_keys = from_device<uint64_t>(run.keys);
    for (size_t i = 0; i < probes.size(); ++i) {
      const bool present = i < data.distinct.size();
      if (!present) {
        CHECK(found[i] == -1);
      } else if (probes[i] == kEmptyKey64) {
        CHECK(found[i] == static_cast<int64_t>(capacity));
      } else {
        REQUIRE(found[i] >= 0);
        CHECK(table_keys[found[i]] == probes[i]);
      }
    }
  }
}

TEST_CASE("a full global table raises the flag, and growing and rerunning gives the answer") {
  const size_t distinct = 20000;
  const KeyRows data = make_rows(distinct, 1 << 18, 99);
  const auto expected = cpu_counts(data.rows);

  const TableRun too_small = run_table(data.rows, distinct / 2, distinct / 2);
  CHECK((too_small.status & kStatusTableFull) != 0);
  CHECK_FALSE(too_small.duplicate_key);

  // The runtime's protocol: double the table until a run finishes without the flag.
  uint64_t capacity = distinct / 2;
  TableRun run = run_table(data.rows, capacity, capacity);
  int reruns = 0;
  while (run.status != 0) {
    capacity *= 2;
    run = run_table(data.rows, capacity, capacity);
    REQUIRE(++reruns < 8);
  }
  CHECK(reruns >= 1);
  CHECK(run.counts == expected);
  CHECK(run.group_count == distinct);
}

TEST_CASE("a bounded probe count flags the table instead of probing on") {
  // 95% full with at most 2 probes per key: some key must find its two slots taken.
  const size_t distinct = 9500;
  const KeyRows data = make_rows(distinct, distinct, 5);
  const TableRun run = run_table(data.rows, 10000, 2);
  CHECK((run.status & kStatusTableFull) != 0);
  CHECK_FALSE(run.duplicate_key);
  // Whatever was counted before the flag is a subset of the truth, never a wrong count.
  const auto expected = cpu_counts(data.rows);
  for (const auto& [key, count] : run.counts) {
    REQUIRE(expected.count(key) == 1);
    CHECK(count <= expected.at(key));
  }
}

}  // namespace tally::cuda::test
