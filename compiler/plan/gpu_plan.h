// The GPU plan of an aggregation: how group keys are encoded, which grouping strategy
// runs, how big its table is, and the launch shape. One descriptor read by the planner,
// the code generator and the runtime (HeavyDB's QueryMemoryDescriptor, in small).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "compiler/ir/query.h"
#include "compiler/plan/column_stats.h"
#include "compiler/plan/gpu_target.h"
#include "compiler/plan/launches.h"
#include "compiler/plan/state_layout.h"
#include "compiler/plan/thread_tables.h"
#include "compiler/plan/value_bounds.h"

namespace tally {

// The most shared memory a kernel may declare statically (__shared__ arrays), on every
// architecture tally targets; more takes a dynamic allocation and an opt-in.
inline constexpr uint64_t kMaxStaticSharedBytes = 48 * 1024;

enum class GpuStrategy {
  Auto,
  ThreadPrivate,  // per-thread register accumulators over a handful of slots, warp-reduced
                  // and flushed once per warp (tome-2018, karnagel-2015 §5.1)
  Direct,         // perfect hash: slot = mixed-radix key, global atomics (tome-2018 §3.3)
  Hash,           // global open-addressing table, CAS insert (karnagel-2015 §2)
  Block,          // Direct's slots as a table in each block's shared memory, shared atomics,
                  // flushed to the global states once per block (karnagel-2015 §5.1)
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
  // A DATE key date_trunc'ed to a month, quarter, year, decade or week: the digit counts its
  // periods (templates/tally_date_parts.cuh period_index: months a period, or kPeriodWeeks)
  // from period `min`, not days, so a quarter key over 7 years takes 28 digits, not 2,527.
  int16_t period = 0;
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
  // GpuPlan::hash_key_words words (templates/tally_table_words.cuh): word 0 = the mixed-radix
  // digits of the bounded keys, then each raw key's NULL flag as a digit of radix 2; then each
  // raw key's bits (0 when NULL) in key order, one word each, two for a DECIMAL(p>18). For
  // keys no one CAS can claim: two or more raw keys, a wide DECIMAL beside other keys.
  KeyWords,
};
const char* hash_key_layout_name(HashKeyLayout layout);

// Where a DISTINCT aggregate outside the set keeps the values it has seen: bit
// `first_bit + slot * values + (value - base)` of one global bitmap (values 0: not there).
struct DistinctBitmap {
  int64_t base = 0;
  uint64_t values = 0;
  uint64_t first_bit = 0;
};

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
  uint8_t hash_key_words = 0;                       // KeyWords: words a key
  // Entries of the set behind COUNT/SUM/AVG(DISTINCT); 0 when the query has none. Sized
  // from the statistics, grown and rerun when it fills.
  uint64_t distinct_capacity = 0;
  // Per aggregate (empty: none): the DISTINCT aggregates whose values a bounded domain lets
  // a bitmap hold instead of the set (compiler/plan/distinct_bitmaps.h), and its 32-bit words.
  std::vector<DistinctBitmap> distinct_bitmaps;
  uint64_t distinct_bitmap_words = 0;
  uint32_t block = 256;
  uint32_t grid = 0;  // blocks of the Scan launch
  // Shared thread tables and block tables: Scan blocks resident per SM, the grid's one wave
  // (the generated Scan asks ptxas to fit that many in registers too).
  uint32_t blocks_per_sm = 0;
  // Direct and Hash: slots of each block's cache of hot groups in shared memory (0: none),
  // a hash table keyed by the global slot whose cells are block_table's.
  uint32_t block_cache_slots = 0;
  // Probes a key may take in the block cache before its row goes to the global states: two,
  // so that a full cache turns new groups away quickly; four where the plan relies on the
  // cache holding every hot key (compiler/plan/count_sum_packing.h), so that a hot key whose
  // two slots hotter keys took first still finds one.
  uint32_t block_cache_probes = 2;
  // Block in one pass: copies of the block's table, lane l merging into copy l % replicas
  // (cells slot * replicas + copy, so a slot's copies sit in different banks): a warp's rows
  // of one hot group then spread over several addresses instead of serialising on one
  // (Sitaridi & Ross's shared-memory replicas for skewed keys). The flush folds the copies.
  uint32_t block_replicas = 1;
  // The Scan runs once per slice of slice_slots slots, each pass merging only its slice's
  // rows (1: no slices): a Block plan whose domain is larger than one block's table (each
  // slice on chip), or a Direct plan whose table is larger than L2 and whose rows' keys are
  // scattered over it (each slice in L2; compiler/plan/l2_slices.h).
  uint32_t scan_slices = 1;
  uint64_t slice_slots = 0;
  // Direct: a key's slot is its mixed-radix value times this, mod slots (0: the value itself),
  // so that hot neighbouring keys do not share cache lines (compiler/plan/slot_spread.h).
  uint64_t spread_multiplier = 0;
  bool sliced() const { return scan_slices > 1; }
  // The Finalizer evaluates HAVING and writes only the groups it keeps; not where it writes
  // state fields, whose groups are not final yet.
  bool having_on_device() const { return having_fits && !emit_states; }
  uint64_t rows = 0;  // input rows the plan was made for
  // The Scan runs once per batch of rows (streamed from host memory, or one part of a table
  // split across engines), so the states get their identities from Init, never the Scan.
  bool streamed = false;
  // The Finalizer writes each group's state fields (compiler/plan/partial_states.h) rather
  // than the finals, so that parts run apart combine exactly on the host
  // (runtime/cpu/partial_groups.h).
  bool emit_states = false;
  // The Scan reads its rows one at a time even where it would unroll them in chunks
  // (compiler/codegen/scan_kernel.cpp): NVRTC compiles it up to 8x faster and it runs up to 3x
  // slower. A new statement's first kernels (runtime/compile/kernel_tiers.h).
  bool quick_scan = false;
  // The query's HAVING is one the Finalizer can evaluate (compiler/plan/device_having.h).
  bool having_fits = false;
  // A packed row count and sum keep the count above bit 32 and count the sum's carries
  // (compiler/plan/count_sum_packing.h): set for the rerun after a group's sum in the
  // low-count layout could have wrapped.
  bool packed_sum_carries = false;
  std::string reason;      // why this strategy, for --explain
  std::string considered;  // for --explain: the group bound and every strategy's fit

  // Derived from the choices above, the query and the statistics (so a plan's fingerprint
  // need not list them): where the states live, the ThreadPrivate strategy's per-thread
  // accumulators, and the kernels to launch.
  StateLayout layout;
  ThreadTables thread_tables;
  BlockTable block_table;  // Block, block cache: the shared table's cells (dynamic shared memory)
  std::vector<Launch> launches;
};

// Dynamic shared memory of the Scan launch: the Block strategy's table or the block cache.
inline uint64_t scan_shared_bytes(const GpuPlan& plan) {
  return plan.strategy == GpuStrategy::Block || plan.block_cache_slots > 0
             ? plan.block_table.shared_bytes
             : 0;
}

// The Scan writes the states' identities itself (templates/tally_init_in_scan.cuh).
inline bool scan_sets_states(const GpuPlan& plan) {
  return !plan.projection && !has_launch(plan.launches, KernelId::Init);
}

// Chooses the strategy and encodings. `forced` other than Auto is honoured when it can run
// the query; otherwise Error(Unsupported) says why. `rows` is the table's row count.
// `parameters`: the values of `?` for this execution where known (a key such as MOD(x, ?)
// then has a bounded domain), else null.
GpuPlan plan_gpu(const BoundSelect& query, const std::vector<ColumnStats>& stats, uint64_t rows,
                 const DeviceLimits& limits, GpuStrategy forced,
                 const std::vector<Value>* parameters = nullptr);

// The plan with a DISTINCT set of `capacity` entries (after the set filled up).
GpuPlan with_distinct_capacity(GpuPlan plan, uint64_t capacity);
// The plan with the Scan run per batch (GpuPlan::streamed) and, when `emit_states`, the
// Finalizer writing state fields.
GpuPlan with_streamed_scan(GpuPlan plan, bool emit_states);
// The plan with the Finalizer writing state fields, its launches as they were (one part's
// rows resident on the device: a single Scan, which may set the states itself).
GpuPlan with_state_cells(GpuPlan plan);
// A hash plan with `capacity` probed slots (the runtime grows the table and replans).
GpuPlan with_hash_capacity(GpuPlan plan, uint64_t capacity);
// A hash plan sized for `groups` groups where that is smaller than its row-based
// capacity; `evidence` (where the number came from) goes into its reason for --explain.
// Other plans unchanged.
GpuPlan with_estimated_groups(GpuPlan plan, uint64_t groups, const std::string& evidence);

// The plan of a query without GROUP BY or aggregates (compiler/plan/projection_planner.cpp);
// plan_gpu calls it for such queries.
GpuPlan plan_projection(uint64_t rows, const DeviceLimits& limits, GpuStrategy forced);

// Bytes of one hash-table key slot under the plan's layout (KeyWords: its words, not its mark).
inline uint64_t hash_key_bytes(const GpuPlan& plan) {
  switch (plan.hash_keys) {
    case HashKeyLayout::Word64:
      return 8;
    case HashKeyLayout::KeyWords:
      return 8ull * plan.hash_key_words;
    default:
      return 16;
  }
}

// Bytes of the hash table's key array (slots + 1 keys; KeyWords: their marks first, padded to
// 8 bytes, as templates/tally_table_words.cuh reads them).
inline uint64_t hash_table_bytes(const GpuPlan& plan) {
  const uint64_t keys = plan.slots + 1;
  const uint64_t marks = plan.hash_keys == HashKeyLayout::KeyWords ? (keys * 4 + 7) / 8 * 8 : 0;
  return marks + keys * hash_key_bytes(plan);
}

// --explain's text of a plan (compiler/plan/plan_description.cpp).
std::string describe_plan(const GpuPlan& plan);
std::string describe_projection_plan(const GpuPlan& plan);

}  // namespace tally
