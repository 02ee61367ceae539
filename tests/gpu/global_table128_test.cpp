// templates/tally_table_global.cuh, 128-bit keys: per-key counts from the GPU table equal
// std::map's, including the keys a torn plain read could fake (EMPTY's low word beside a
// key of the same high word), the widest DECIMAL values, and keys sharing a word with EMPTY;
// lookups agree; a table too small raises the full flag and growing it x4 gives the answer.
#include <doctest/doctest.h>

#include <algorithm>
#include <map>
#include <random>
#include <set>
#include <utility>

#include "tests/gpu/gpu_support.h"
#include "tests/unit/support/device_refs.h"

namespace tally::cuda::test {
namespace {

// The kernels take the 64-bit table's host mirror (the same fields and layout) and view
// its key array as 16-byte slots.
const char* const kTable128Kernels = R"cuda(
TALLY_DEV GlobalTable128Ref wide(const GlobalTableRef& r) {
  return {(u128*)r.keys, r.capacity, r.max_probes, r.status, r.group_count};
}

extern "C" __global__ void clear_table128(GlobalTableRef table) { global_table_clear(wide(table)); }

extern "C" __global__ void count_keys128(GlobalTableRef ref, const u64* keys, u64 n, u64* counts) {
  const GlobalTable128Ref table = wide(ref);
  for (u64 i = global_thread_index(); i < n; i += grid_stride()) {
    if (status_raised(table.status)) return;
    const i64 slot = table.insert_or_find(Key128{keys[2 * i], keys[2 * i + 1]});
    if (slot != GlobalTable128Ref::kNoSlot) atomicAdd(&counts[slot], 1ull);
  }
}

extern "C" __global__ void find_keys128(GlobalTableRef ref, const u64* keys, u64 n, i64* slots) {
  const GlobalTable128Ref table = wide(ref);
  for (u64 i = global_thread_index(); i < n; i += grid_stride()) {
    slots[i] = table.find(Key128{keys[2 * i], keys[2 * i + 1]});
  }
}
)cuda";

Module& table_module() { return test_module(kTable128Kernels, "global_table128_test.cu"); }

constexpr uint32_t kBlock = 256;
constexpr uint64_t kEmptyLo = 0x9e3779b97f4a7c15ull;  // templates/tally_table_global.cuh
constexpr uint64_t kEmptyHi = 0x8000000000000000ull;
using Key = std::pair<uint64_t, uint64_t>;  // (lo, hi)

// Two's complement words of +-(10^38 - 1), the widest DECIMAL(38) values.
Key decimal_words(bool negative) {
  unsigned __int128 v = 1;
  for (int i = 0; i < 38; ++i) v *= 10;
  v -= 1;
  if (negative) v = ~v + 1;
  return {static_cast<uint64_t>(v), static_cast<uint64_t>(v >> 64)};
}

struct KeyRows {
  std::vector<Key> distinct;
  std::vector<uint64_t> words;  // rows as (lo, hi) word pairs
};

// Hard keys first (hot under the skew below), then random ones that share high words.
KeyRows make_rows(size_t distinct_keys, size_t rows, uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::set<Key> seen = {{0, 0},
                        {5, 0},
                        {0, 7},
                        {9, 7},
                        {~0ull, ~0ull},
                        {1, kEmptyHi},
                        {kEmptyLo, 3},
                        {5, 3},
                        {0, kEmptyHi},
                        {0, kEmptyHi - 1},
                        decimal_words(false),
                        decimal_words(true)};
  KeyRows out;
  out.distinct.assign(seen.begin(), seen.end());
  while (out.distinct.size() < distinct_keys) {
    const Key key{rng() % 4 == 0 ? 0 : rng(), rng() % 64};
    if (seen.insert(key).second) out.distinct.push_back(key);
  }
  for (size_t i = 0; i < rows; ++i) {
    const double u = std::uniform_real_distribution<double>(0, 1)(rng);
    const Key& k = i < distinct_keys ? out.distinct[i]
                                     : out.distinct[static_cast<size_t>(u * u * distinct_keys)];
    out.words.push_back(k.first);
    out.words.push_back(k.second);
  }
  return out;
}

struct TableRun {
  uint32_t status = 0;
  uint64_t group_count = 0;
  std::map<Key, uint64_t> counts;
  bool duplicate_key = false;
  GlobalTableRef ref;
  DeviceBuffer keys, status_word, group_counter;
};

TableRun run_table(const std::vector<uint64_t>& words, uint64_t capacity) {
  TableRun run;
  run.keys = DeviceBuffer((capacity + 1) * 16, "hash table keys");
  run.status_word = filled_device<uint32_t>(1, 0, "table status");
  run.group_counter = filled_device<uint64_t>(1, 0, "group counter");
  DeviceBuffer counts = filled_device<uint64_t>(capacity + 1, 0, "per-slot counts");
  DeviceBuffer input = to_device(words, "keys");
  run.ref = {run.keys.ptr(), capacity, capacity, run.status_word.ptr(), run.group_counter.ptr()};
  const uint64_t n = words.size() / 2;
  launch(table_module().kernel("clear_table128"), {grid_for(capacity + 1, kBlock), kBlock},
         run.ref);
  launch(table_module().kernel("count_keys128"), {grid_for(n, kBlock), kBlock}, run.ref,
         input.ptr(), n, counts.ptr());
  run.status = from_device<uint32_t>(run.status_word)[0];
  run.group_count = from_device<uint64_t>(run.group_counter)[0];
  const std::vector<uint64_t> slot_counts = from_device<uint64_t>(counts);
  const std::vector<uint64_t> table = from_device<uint64_t>(run.keys);
  for (uint64_t s = 0; s <= capacity; ++s) {
    const Key key{table[2 * s], table[2 * s + 1]};
    if (key == Key{kEmptyLo, kEmptyHi}) continue;
    CHECK(s < capacity);  // slot `capacity` is never claimed
    run.duplicate_key |= !run.counts.emplace(key, slot_counts[s]).second;
  }
  return run;
}

std::map<Key, uint64_t> cpu_counts(const std::vector<uint64_t>& words) {
  std::map<Key, uint64_t> counts;
  for (size_t i = 0; i < words.size(); i += 2) ++counts[{words[i], words[i + 1]}];
  return counts;
}

}  // namespace

TEST_CASE("128-bit hash table counts every key like std::map, and finds them") {
  for (size_t distinct : {12ul, 100ul, 50000ul}) {  // 12: every hard key of make_rows
    INFO("distinct keys: " << distinct);
    const KeyRows data = make_rows(distinct, 1 << 20, distinct);
    REQUIRE(data.distinct.size() == distinct);  // every key probed as present was inserted
    const uint64_t capacity = distinct * 2;
    const TableRun run = run_table(data.words, capacity);
    CHECK(run.status == 0);
    CHECK_FALSE(run.duplicate_key);
    CHECK(run.group_count == distinct);
    CHECK(run.counts == cpu_counts(data.words));

    std::vector<uint64_t> probes;
    for (const Key& k : data.distinct) probes.insert(probes.end(), {k.first, k.second});
    const size_t present = data.distinct.size();
    for (uint64_t hi = 0; probes.size() / 2 < present + 64; ++hi) {
      const Key absent{12345, 1000 + hi};  // high words the pool never draws
      probes.insert(probes.end(), {absent.first, absent.second});
    }
    const size_t n = probes.size() / 2;
    DeviceBuffer probe_keys = to_device(probes, "lookup keys");
    DeviceBuffer slots(n * sizeof(int64_t), "lookup results");
    launch(table_module().kernel("find_keys128"), {grid_for(n, kBlock), kBlock}, run.ref,
           probe_keys.ptr(), uint64_t{n}, slots.ptr());
    const std::vector<int64_t> found = from_device<int64_t>(slots);
    const std::vector<uint64_t> table = from_device<uint64_t>(run.keys);
    for (size_t i = 0; i < n; ++i) {
      if (i >= present) {
        CHECK(found[i] == -1);
        continue;
      }
      REQUIRE(found[i] >= 0);
      CHECK(table[2 * found[i]] == probes[2 * i]);
      CHECK(table[2 * found[i] + 1] == probes[2 * i + 1]);
    }
  }
}

TEST_CASE("a full 128-bit table raises the flag, and growing x4 and rerunning gives the answer") {
  const size_t distinct = 20000;
  const KeyRows data = make_rows(distinct, 1 << 18, 99);
  uint64_t capacity = 64;
  TableRun run = run_table(data.words, capacity);
  CHECK((run.status & kStatusTableFull) != 0);
  CHECK_FALSE(run.duplicate_key);
  int reruns = 0;
  while (run.status != 0) {
    capacity *= 4;
    run = run_table(data.words, capacity);
    REQUIRE(++reruns < 8);
  }
  CHECK(run.counts == cpu_counts(data.words));
  CHECK(run.group_count == distinct);
}

}  // namespace tally::cuda::test
