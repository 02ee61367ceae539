// The GPU plan of an aggregation: how group keys are encoded, which grouping strategy
// runs, how big its table is, and the launch shape. One descriptor read by the planner,
// the code generator and the runtime (HeavyDB's QueryMemoryDescriptor, in small).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "compiler/ir/query.h"
#include "compiler/plan/gpu_target.h"

namespace tally {

// What the planner knows of a scan column (from the runtime's column statistics).
struct ColumnStats {
  bool has_range = false;  // min/max known (integer-like payloads, dictionary codes)
  int64_t min = 0;
  int64_t max = 0;
  bool has_nulls = false;
  bool has_values = true;      // at least one non-NULL value
  size_t dictionary_size = 0;  // VARCHAR columns
  // Physical encoding, for the decoder the generated Scan instantiates.
  enum class Layout { Plain, BitPacked } layout = Layout::Plain;
  int bits = 0;         // BitPacked
  int64_t base = 0;     // BitPacked
  int plain_width = 0;  // Plain: bytes per value
};

// The most shared memory a kernel may declare statically (__shared__ arrays), on every
// architecture tally targets; more takes a dynamic allocation and an opt-in.
inline constexpr uint64_t kMaxStaticSharedBytes = 48 * 1024;

enum class GpuStrategy {
  Auto,
  ThreadPrivate,  // per-thread register accumulators over a handful of slots, warp-reduced
                  // and flushed once per warp (tome-2018, karnagel-2015 §5.1)
  Direct,         // perfect hash: slot = mixed-radix key, global atomics (tome-2018 §3.3)
  Hash,           // global open-addressing table, CAS insert (karnagel-2015 §2)
};
const char* strategy_name(GpuStrategy s);
GpuStrategy strategy_from_name(const std::string& name);  // throws Error(Unsupported)

// One group key's encoding.
struct KeyEncoding {
  bool bounded = true;  // value - min is a digit in [0, values); else a raw key, hashed
                        // (64 bits, or a DECIMAL(p>18)'s 128: GpuPlan::hash_keys)
  int64_t min = 0;
  uint64_t values = 1;    // non-NULL digits
  bool nullable = false;  // one more digit (bounded) or the NULL slot (raw)
  // A column whose own statistics (exact for the data the kernel is compiled for: they are
  // part of the plan's fingerprint) or dictionary give the range: no row can leave it, so
  // the Scan does not check it per row.
  bool exact = false;
  int dictionary_column = -1;  // scan column whose dictionary decodes a VARCHAR key
  uint64_t radix() const { return values + (nullable ? 1 : 0); }
};

// How the Hash strategy stores a group's key in a slot (templates/tally_table_global.cuh).
enum class HashKeyLayout : uint8_t {
  Word64,  // one 64-bit word: a raw key, or the mixed-radix digits of bounded keys
  // 128 bits, lo = the one unbounded key's raw 64 bits (0 when NULL), hi = the mixed-radix
  // digits of the bounded keys, then that key's NULL flag as one more digit of radix 2;
  // hi stays below 2^63, under the EMPTY marker's hi. No NULL slot is used.
  RawAndDigits128,
  // 128 bits: the value of a single DECIMAL(p>18) key; its NULL takes the NULL slot.
  Decimal128,
};
const char* hash_key_layout_name(HashKeyLayout layout);

struct GpuPlan {
  GpuStrategy strategy = GpuStrategy::Direct;
  std::vector<KeyEncoding> keys;
  uint64_t slots = 1;        // Direct/ThreadPrivate: product of radices; Hash: probed capacity
  uint64_t state_slots = 1;  // state array length: slots, or capacity + side + NULL slot
  // ThreadPrivate: keep each thread's table in shared memory (indexed by slot, no branch
  // per slot, and registers free for more resident warps) rather than in registers. The
  // planner sets it only where the tables fit kMaxStaticSharedBytes a block.
  bool shared_thread_tables = false;
  // A query without GROUP BY or aggregates: no grouping strategy, a compacting scan that
  // writes the passing rows' outputs in input order (plan_projection).
  bool projection = false;
  HashKeyLayout hash_keys = HashKeyLayout::Word64;  // Hash: the slot key's layout
  // Entries of the set behind COUNT/SUM/AVG(DISTINCT); 0 when the query has none. Sized
  // from the statistics, grown and rerun when it fills.
  uint64_t distinct_capacity = 0;
  uint32_t block = 256;
  uint32_t grid = 0;  // blocks of the Scan launch
  // Shared thread tables: Scan blocks resident per SM, the grid's one wave (the
  // generated Scan asks ptxas to fit that many in registers too).
  uint32_t blocks_per_sm = 0;
  uint64_t rows = 0;   // input rows the plan was made for
  std::string reason;  // why this strategy, for --explain
};

// log2 of the largest unscaled magnitude an expression can reach, by interval reasoning
// over the column statistics (declared precision where nothing better is known).
long double magnitude_log2(const Expr& e, const std::vector<ColumnStats>& stats);

// Interval of an integer or DECIMAL expression's unscaled value, from the column statistics
// (known == false where the reasoning does not reach: floats, division, functions).
struct ValueBounds {
  bool known = false;
  long double lo = 0, hi = 0;
};
ValueBounds value_bounds(const Expr& e, const std::vector<ColumnStats>& stats);

// Chooses the strategy and encodings. `forced` other than Auto is honoured when it can run
// the query; otherwise Error(Unsupported) says why. `rows` is the table's row count.
GpuPlan plan_gpu(const BoundSelect& query, const std::vector<ColumnStats>& stats, uint64_t rows,
                 const DeviceLimits& limits, GpuStrategy forced);

// A hash plan with `capacity` probed slots (the runtime grows the table and replans).
// The plan with a DISTINCT set of `capacity` entries (after the set filled up).
GpuPlan with_distinct_capacity(GpuPlan plan, uint64_t capacity);
GpuPlan with_hash_capacity(GpuPlan plan, uint64_t capacity);

// The plan of a query without GROUP BY or aggregates (compiler/plan/projection_planner.cpp);
// plan_gpu calls it for such queries.
GpuPlan plan_projection(uint64_t rows, const DeviceLimits& limits, GpuStrategy forced);

// Bytes of one hash-table key slot under the plan's layout.
inline uint64_t hash_key_bytes(const GpuPlan& plan) {
  return plan.hash_keys == HashKeyLayout::Word64 ? 8 : 16;
}

std::string describe_plan(const GpuPlan& plan);
std::string describe_projection_plan(const GpuPlan& plan);

}  // namespace tally
