// templates/tally_table_direct.cuh: two key columns (one nullable) combined by mixed
// radix; per-group counts and sums equal a CPU map, slots decode back to their keys, and a
// key outside its domain raises kStatusKeyOutOfRange.
#include <doctest/doctest.h>

#include <map>
#include <optional>
#include <random>

#include "tests/gpu/gpu_support.h"
#include "tests/unit/support/device_refs.h"

namespace tally::cuda::test {
namespace {

const char* const kDirectKernels = R"cuda(
// Key a in [a_min, a_min + a_radix); key b nullable, digit b_radix - 1 stands for NULL.
extern "C" __global__ void direct_aggregate(DirectTableRef table, const i64* a, const i64* b,
                                            const u8* b_valid, const i64* values, u64 n,
                                            i64 a_min, u64 a_radix, i64 b_min, u64 b_radix,
                                            u64* counts, i64* sums) {
  for (u64 i = global_thread_index(); i < n; i += grid_stride()) {
    MixedRadix key;
    key.add_key(a[i], a_min, a_radix);
    key.add_nullable_key(b_valid[i] != 0, b[i], b_min, b_radix - 1);
    const i64 slot = table.slot(key);
    if (slot == DirectTableRef::kNoSlot) continue;
    atomicAdd(&counts[slot], 1ull);
    atomic_add(&sums[slot], values[i]);
  }
}

extern "C" __global__ void single_key(DirectTableRef table, const i64* keys, u64 n, i64 min,
                                      u64* counts) {
  for (u64 i = global_thread_index(); i < n; i += grid_stride()) {
    const i64 slot = table.slot(keys[i], min);
    if (slot != DirectTableRef::kNoSlot) atomicAdd(&counts[slot], 1ull);
  }
}
)cuda";

Module& direct_module() { return test_module(kDirectKernels, "direct_table_test.cu"); }

constexpr uint32_t kBlock = 256;
constexpr int64_t kAMin = -3, kAMax = 10;    // a in [-3, 10]
constexpr int64_t kBMin = 100, kBMax = 104;  // b in [100, 104] or NULL
constexpr uint64_t kARadix = kAMax - kAMin + 1;
constexpr uint64_t kBRadix = kBMax - kBMin + 2;  // + the NULL digit

using GroupKey = std::pair<int64_t, std::optional<int64_t>>;
struct Group {
  uint64_t count = 0;
  int64_t sum = 0;
  bool operator==(const Group&) const = default;
};

struct Columns {
  std::vector<int64_t> a, b, values;
  std::vector<uint8_t> b_valid;
};

Columns random_columns(size_t rows, int64_t a_max) {
  std::mt19937_64 rng(2018);
  Columns c;
  for (size_t i = 0; i < rows; ++i) {
    c.a.push_back(std::uniform_int_distribution<int64_t>(kAMin, a_max)(rng));
    c.b.push_back(std::uniform_int_distribution<int64_t>(kBMin, kBMax)(rng));
    c.b_valid.push_back(rng() % 5 != 0);
    c.values.push_back(std::uniform_int_distribution<int64_t>(-1000000, 1000000)(rng));
  }
  return c;
}

struct DirectRun {
  uint32_t status = 0;
  std::map<GroupKey, Group> groups;
};

DirectRun run_direct(const Columns& c) {
  const uint64_t slots = kARadix * kBRadix, n = c.a.size();
  DeviceBuffer status = filled_device<uint32_t>(1, 0, "status");
  DeviceBuffer counts = filled_device<uint64_t>(slots, 0, "counts");
  DeviceBuffer sums = filled_device<int64_t>(slots, 0, "sums");
  DeviceBuffer a = to_device(c.a, "a"), b = to_device(c.b, "b"), valid = to_device(c.b_valid, "v"),
               values = to_device(c.values, "values");
  const DirectTableRef table{slots, status.ptr()};
  launch(direct_module().kernel("direct_aggregate"), {grid_for(n, kBlock), kBlock}, table, a.ptr(),
         b.ptr(), valid.ptr(), values.ptr(), n, kAMin, kARadix, kBMin, kBRadix, counts.ptr(),
         sums.ptr());
  DirectRun run;
  run.status = from_device<uint32_t>(status)[0];
  const std::vector<uint64_t> slot_counts = from_device<uint64_t>(counts);
  const std::vector<int64_t> slot_sums = from_device<int64_t>(sums);
  for (uint64_t slot = 0; slot < slots; ++slot) {
    if (slot_counts[slot] == 0) continue;
    // Decode the mixed-radix slot back into its keys (first column least significant).
    const int64_t key_a = kAMin + static_cast<int64_t>(slot % kARadix);
    const uint64_t digit_b = slot / kARadix;
    const std::optional<int64_t> key_b =
        digit_b == kBRadix - 1 ? std::nullopt : std::optional<int64_t>(kBMin + digit_b);
    run.groups[{key_a, key_b}] = {slot_counts[slot], slot_sums[slot]};
  }
  return run;
}

std::map<GroupKey, Group> cpu_groups(const Columns& c, int64_t a_limit) {
  std::map<GroupKey, Group> groups;
  for (size_t i = 0; i < c.a.size(); ++i) {
    if (c.a[i] > a_limit) continue;  // out of the domain: dropped (and flagged) on the GPU
    Group& g = groups[{c.a[i], c.b_valid[i] ? std::optional<int64_t>(c.b[i]) : std::nullopt}];
    ++g.count;
    g.sum += c.values[i];
  }
  return groups;
}

}  // namespace

TEST_CASE("direct table groups two key columns, one nullable, like a CPU map") {
  const Columns c = random_columns(1 << 20, kAMax);
  const DirectRun run = run_direct(c);
  CHECK(run.status == 0);
  CHECK(run.groups.size() == kARadix * kBRadix);  // every combination occurs in 2^20 rows
  CHECK(run.groups == cpu_groups(c, kAMax));
}

TEST_CASE("a key outside the direct table's domain raises the out-of-range flag") {
  const Columns c = random_columns(1 << 16, kAMax + 2);
  const DirectRun run = run_direct(c);
  CHECK((run.status & kStatusKeyOutOfRange) != 0);
  CHECK((run.status & kStatusTableFull) == 0);
  // The rows in the domain were still counted correctly (the host replans anyway).
  CHECK(run.groups == cpu_groups(c, kAMax));
}

TEST_CASE("single-column direct slots reject keys below the minimum and past the end") {
  const std::vector<int64_t> keys = {5, 6, 7, 5, 4, 8, INT64_MIN, INT64_MAX, 7};
  DeviceBuffer status = filled_device<uint32_t>(1, 0, "status");
  DeviceBuffer counts = filled_device<uint64_t>(3, 0, "counts");
  DeviceBuffer input = to_device(keys, "keys");
  const DirectTableRef table{3, status.ptr()};
  launch(direct_module().kernel("single_key"), {1, kBlock}, table, input.ptr(),
         uint64_t{keys.size()}, int64_t{5}, counts.ptr());
  CHECK(from_device<uint64_t>(counts) == std::vector<uint64_t>{2, 1, 2});
  CHECK(from_device<uint32_t>(status)[0] == kStatusKeyOutOfRange);
}

}  // namespace tally::cuda::test
