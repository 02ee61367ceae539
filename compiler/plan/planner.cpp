// Strategy choice for the GPU (README.md "How a query runs on the GPU"), from what the
// statistics say of the key domain and from the device.
#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <optional>

#include "compiler/common/error.h"
#include "compiler/plan/calibrated_choice.h"
#include "compiler/plan/count_sum_packing.h"
#include "compiler/plan/device_having.h"
#include "compiler/plan/distinct_bitmaps.h"
#include "compiler/plan/gpu_plan.h"
#include "compiler/plan/key_encoding.h"
#include "compiler/plan/shared_placement.h"
#include "compiler/plan/string_domain.h"

namespace tally {

namespace {

// Register accumulators: slots x state fields must stay small, or they spill to local memory.
constexpr uint64_t kThreadPrivateSlots = 16;
constexpr uint64_t kThreadPrivateCells = 160;
constexpr uint64_t kMaxDirectSlots = 1ull << 26;
constexpr uint64_t kMinHashCapacity = 1024;
// Block tables: each block clears and flushes its whole table, so a block should read many
// rows per slot for that to stay small beside the scan.
constexpr uint64_t kBlockRowsPerSlot = 8;

uint64_t next_pow2(uint64_t v) {
  uint64_t p = 1;
  while (p < v) p <<= 1;
  return p;
}

// 128-bit sums on the device wrap silently where the CPU reports an overflow, so the GPU
// takes only sums that cannot reach 2^126 over this many rows.
void check_sum_bounds(const BoundSelect& query, const std::vector<ColumnStats>& stats,
                      uint64_t rows) {
  long double rows_log2 = std::log2(std::max<long double>(2, rows));
  for (const auto& a : query.aggregates) {
    if (!a.arg) continue;
    // A DISTINCT sum is bounded like the plain one: the distinct values are a subset.
    const SumGrowth growth = aggregate_state(a.kind, a.arg->type).growth;
    const long double m = magnitude_log2(*a.arg, stats);
    // Squares past 128 bits split in halves (state_layout.h), if those fit.
    if ((growth == SumGrowth::Linear && m + rows_log2 >= 126) ||
        (growth == SumGrowth::Square && square_split_bits(*a.arg, stats, rows) < 0)) {
      unsupported_on_gpu(fmt::format("an exact {} whose 128-bit state could overflow (\"{}\")",
                                     aggregate_sql_name(a.kind), a.text));
    }
  }
}

// A DISTINCT aggregate's (group, value) pairs: at most groups x its argument's domain, and
// never more than the rows.
long double distinct_pairs(uint64_t rows, long double groups, long double domain) {
  return std::min(static_cast<long double>(rows),
                  std::max<long double>(1, groups) * std::max<long double>(1, domain));
}

// The DISTINCT set's entries for `pairs` pairs: twice that, so probes stay short.
uint64_t distinct_set_entries(long double pairs) {
  return std::max(kMinHashCapacity, next_pow2(static_cast<uint64_t>(2 * pairs)));
}

// Entries for the DISTINCT set of every aggregate that keeps its values apart.
uint64_t distinct_capacity(const BoundSelect& query, const StateLayout& layout,
                           const std::vector<ColumnStats>& stats, uint64_t rows, uint64_t groups) {
  long double pairs = 0;
  bool any = false;
  for (size_t i = 0; i < query.aggregates.size(); ++i) {
    const AggregateCall& a = query.aggregates[i];
    if (!keeps_seen_values(query, layout, i)) continue;
    any = true;
    long double domain = static_cast<long double>(rows);
    if (a.arg->type.is_string() && a.arg->kind != ExprKind::ColumnRef) {
      domain = static_cast<long double>(string_domain_shape(*a.arg, query, stats).bound);
    } else if (a.arg->kind == ExprKind::ColumnRef) {
      const ColumnStats& s = stats[a.arg->index];
      if (s.dictionary_size > 0) domain = static_cast<long double>(s.dictionary_size);
      if (s.has_range) {
        domain = std::min(domain, static_cast<long double>(s.max) - s.min + 1);
      }
    }
    pairs += distinct_pairs(rows, static_cast<long double>(groups), domain);
  }
  if (!any) return 0;  // an empty input still needs a (small) set for the kernel to name
  return distinct_set_entries(pairs);
}

// A HUGEINT's DISTINCT set hashes 64-bit words on the device: it runs on the CPU.
void refuse_hugeint_sets(const BoundSelect& query) {
  for (const auto& a : query.aggregates) {
    if (!a.arg || !a.arg->type.is_hugeint()) continue;
    if (a.distinct && a.kind != AggKind::ApproxCountDistinct) {
      unsupported_on_gpu(
          fmt::format("{} of a HUGEINT (\"{}\")", aggregate_sql_name(a.kind), a.text));
    }
  }
}

bool has_interval(const ExprPtr& e) {
  if (!e) return false;
  if (e->type.is_interval()) return true;
  return std::any_of(e->children.begin(), e->children.end(), has_interval);
}

// INTERVAL values (three parts in 128 bits) have no device form yet: the CPU engine runs
// every query that holds one, and auto says why.
void refuse_intervals(const BoundSelect& query) {
  for (const auto& column : query.scan) {
    if (column.type.is_interval()) {
      unsupported_on_gpu(fmt::format("the INTERVAL column \"{}\"", column.name));
    }
  }
  bool found = has_interval(query.filter) || has_interval(query.having) ||
               std::any_of(query.group_keys.begin(), query.group_keys.end(), has_interval);
  for (const auto& a : query.aggregates) {
    found = found || a.type.is_interval() || has_interval(a.arg) || has_interval(a.key);
  }
  for (const auto& o : query.outputs) found = found || has_interval(o.expr);
  if (found) unsupported_on_gpu("an INTERVAL value");
}

void check_query(const BoundSelect& query, const std::vector<ColumnStats>& stats, uint64_t rows) {
  refuse_hugeint_sets(query);
  refuse_intervals(query);
  for (const auto& a : query.aggregates) {
    // A state with no device final (a value list or a sketch per group) runs on the CPU
    // only, as does one whose device state cannot hold its argument types.
    const StateInfo* state = a.arg ? &aggregate_state(a.kind, a.arg->type) : nullptr;
    if (state && !state->device_final) {
      unsupported_on_gpu(
          fmt::format("{} (\"{}\"{})", aggregate_sql_name(a.kind), a.text,
                      state->holistic ? ", which keeps a list or sketch per group" : ""));
    }
    if (state && state->device_refusal) {
      if (const char* why = state->device_refusal(a.arg->type, a.key ? a.key->type : Type{})) {
        unsupported_on_gpu(
            fmt::format("{} of {} (\"{}\")", aggregate_sql_name(a.kind), why, a.text));
      }
    }
    // Strings enter the DISTINCT set as dictionary codes, or as ids of a string domain.
    if (a.distinct && a.arg->type.is_string() && a.arg->kind != ExprKind::ColumnRef) {
      string_domain_shape(*a.arg, query, stats);  // throws naming what has no bounded domain
    }
  }
  check_sum_bounds(query, stats, rows);
}

}  // namespace

GpuPlan with_distinct_capacity(GpuPlan plan, uint64_t capacity) {
  plan.distinct_capacity = std::max<uint64_t>(capacity, kMinHashCapacity);
  return plan;
}

GpuPlan with_state_cells(GpuPlan plan) {
  plan.emit_states = !plan.projection;
  return plan;
}

GpuPlan with_streamed_scan(GpuPlan plan, bool emit_states) {
  if (plan.projection) return plan;  // a projection's passes run per batch as they are
  plan.streamed = true;
  plan.emit_states = emit_states;
  plan.launches = aggregation_launches(false, plan.layout.second_pass());
  return plan;
}

namespace {

// For --explain: the group count the statistics allow, and what each strategy would do with
// this query, so a reader sees why the chosen one won.
std::string considered(const std::optional<BlockPlacement>& in_blocks, uint64_t product, bool raw,
                       uint64_t rows, size_t fields, bool fits_registers) {
  std::string out =
      raw ? fmt::format("  groups: at most {} (a key without a bounded domain: one a row)\n", rows)
          : fmt::format("  groups: at most {} (key domain {}, rows {})\n",
                        std::min(product, std::max<uint64_t>(rows, 1)), product, rows);
  if (raw)
    return out + "  considered: hash only (thread, block and direct need a bounded domain)\n";
  out += fmt::format(
      "  considered: thread: {} slots x {} fields {} registers ({} slots, {} cells at most)\n",
      product, fields, fits_registers ? "fit" : "exceed", kThreadPrivateSlots, kThreadPrivateCells);
  if (in_blocks) {
    out += fmt::format(
        "              block: {} bytes of shared memory a block, {} rows a block for {} slots ({} "
        "needed){}\n",
        in_blocks->table.shared_bytes, rows / in_blocks->grid, product, product * kBlockRowsPerSlot,
        has_wide_cells(in_blocks->table) ? "; 128-bit cells: forced only" : "");
  } else {
    out += fmt::format(
        "              block: does not fit ({} slots; a block holds at most {} slots, and no "
        "1 KiB sketch)\n",
        product, kMaxBlockSlots);
  }
  out += fmt::format("              direct: {} slots in global memory, global atomics{}\n", product,
                     product <= kMaxDirectSlots ? "" : " (beyond its limit)");
  return out + fmt::format("              hash: {} slots, CAS insert\n",
                           std::max(kMinHashCapacity, next_pow2(2 * std::min(product, rows))));
}

// The most Block slices auto takes: fewer where a Direct plan would pack its row count and a
// sum in one word, one atomic a row (H100, 2^26 rows: 2^17 slots ran direct in 0.87 ms and in
// 8 slices in 1.04, a pass 0.13 ms; H200, 2^27 rows: direct 1.42 ms, a pass 0.165).
uint32_t auto_block_slices(const GpuPlan& plan, const BoundSelect& query,
                           const std::vector<ColumnStats>& stats, uint64_t product) {
  GpuPlan direct = plan;
  direct.strategy = GpuStrategy::Direct;
  direct.slots = product;
  direct.state_slots = product;
  return count_sum_packing(direct, query, stats).packs() ? kAutoBlockSlicesPacked
                                                         : kAutoBlockSlices;
}

}  // namespace

GpuPlan with_hash_capacity(GpuPlan plan, uint64_t capacity) {
  plan.strategy = GpuStrategy::Hash;
  plan.shared_thread_tables = false;
  plan.thread_tables = {};
  if (plan.block_cache_slots == 0) plan.block_table = {};  // a grown table keeps its cache
  plan.launches = aggregation_launches(false, plan.layout.second_pass());
  // Bitmaps are indexed by slot, and a hash table's capacity grows: its DISTINCT uses the set.
  long double pairs = 0;
  for (const DistinctBitmap& b : plan.distinct_bitmaps) {
    if (b.values > 0) {
      pairs +=
          distinct_pairs(std::max<uint64_t>(plan.rows, 1), static_cast<long double>(plan.slots),
                         static_cast<long double>(b.values));
    }
  }
  if (pairs > 0)
    plan.distinct_capacity = std::max(plan.distinct_capacity, distinct_set_entries(pairs));
  plan.distinct_bitmaps.clear();
  plan.distinct_bitmap_words = 0;
  plan.slots = std::max<uint64_t>(capacity, 1);
  // + the side slot of the EMPTY key (never claimed with 128-bit keys) + the NULL slot
  plan.state_slots = plan.slots + 2;
  return plan;
}

GpuPlan with_estimated_groups(GpuPlan plan, uint64_t groups, const std::string& evidence) {
  // Twice the groups: a power of two up to 2^20 slots, past that a multiple of 2^20, so that an
  // estimate just past a power of two does not double the table (a global table's slots need no
  // power of two: templates/tally_table_global.cuh). H200, 8 M groups of two keys at SF 10:
  // 2^25 slots took 5.66 ms of kernels where 2^24 took 5.15 (bench/RESULTS_groupby_sweep.md,
  // session 41).
  constexpr uint64_t kStep = uint64_t{1} << 20;
  const uint64_t wanted = 2 * std::max<uint64_t>(groups, 1);
  const uint64_t capacity =
      std::max(kMinHashCapacity, std::min(next_pow2(wanted), (wanted + kStep - 1) / kStep * kStep));
  if (plan.strategy != GpuStrategy::Hash || capacity >= plan.slots) return plan;
  // Within half of the groups the keys' domain or the rows allow, the table keeps the size that
  // bound gave: at most twice the estimate's, and no fuller. H200, 2^23 groups of two keys, the
  // estimate 5.4 M: 11.5 M slots took 12.2 ms, 2^24 10.7 (bench/RESULTS_groupby_sweep.md,
  // session 42).
  if (2 * capacity > plan.slots) {
    plan.reason +=
        fmt::format("; sized for its bound (estimated up to {} groups, {})", groups, evidence);
    return plan;
  }
  plan = with_hash_capacity(plan, capacity);
  plan.reason += fmt::format("; sized for up to {} groups ({})", groups, evidence);
  return plan;
}

GpuPlan plan_gpu(const BoundSelect& query, const std::vector<ColumnStats>& stats, uint64_t rows,
                 const DeviceLimits& limits, GpuStrategy forced,
                 const std::vector<Value>* parameters) {
  if (!query.aggregated) return plan_projection(rows, limits, forced);
  check_query(query, stats, rows);
  GpuPlan plan;
  plan.having_fits = having_fits_device(query);
  plan.layout = layout_states(query, stats, rows, true);
  for (const auto& key : query.group_keys) {
    plan.keys.push_back(encode_key(*key, stats, query, parameters));
  }
  hold_dropped_keys_null(query, plan.keys);
  plan.grid = static_cast<uint32_t>(limits.sm_count) * 8;
  plan.rows = rows;
  uint64_t product = slot_product(plan.keys);
  bool raw = product == 0;
  if (raw) plan.hash_keys = hash_key_layout(query, plan.keys, plan.hash_key_words);
  uint64_t cells = product * plan.layout.fields.size();
  // A 1 KiB sketch a group fits no thread's registers and few a block's shared memory.
  const bool sketches = plan.layout.sketches();
  bool fits_registers =
      !raw && !sketches && product <= kThreadPrivateSlots && cells <= kThreadPrivateCells;
  bool fits_direct = !raw && product <= kMaxDirectSlots;
  std::optional<BlockPlacement> in_blocks;
  if (fits_direct && !sketches && product <= kMaxBlockSlots) {
    in_blocks = place_block_table(plan.layout, query, stats, rows, product, limits);
  }
  const bool fits_block = in_blocks.has_value();
  // 128-bit cells merge in shared memory only by compare-and-swap loops, which contend there
  // (ARG_MAX over 1,000 groups at SF 10 on an H100: block 9.3 ms, direct 2.5): forced only.
  const bool auto_block = fits_block && !has_wide_cells(in_blocks->table);
  std::optional<BlockSlices> slices;
  if (fits_direct && !sketches && !fits_block) {
    slices = place_block_slices(plan.layout, query, stats, rows, product, limits);
  }
  const uint32_t auto_slices = slices ? auto_block_slices(plan, query, stats, product) : 0;
  plan.considered =
      considered(in_blocks, product, raw, rows, plan.layout.fields.size(), fits_registers);
  if (slices) {
    plan.considered += fmt::format(
        "              block in slices: {} slices of {} slots, {} bytes of shared memory a "
        "block, one pass over the rows each (auto takes up to {})\n",
        slices->count, slices->slots, slices->placement.table.shared_bytes, auto_slices);
  }
  GpuStrategy chosen = forced;
  std::optional<CalibratedChoice> measured;
  if (chosen == GpuStrategy::Auto && limits.rates && !raw) {
    // `tally calibrate` forces block, which slices a table too large for one pass, so the
    // profile's block rates past a block's table are sliced tables' rates.
    const bool sliced_block = slices && !has_wide_cells(slices->placement.table);
    measured = calibrated_choice(
        *limits.rates,
        {fits_registers, auto_block || sliced_block, fits_direct, !query.group_keys.empty()},
        product, rows);
  }
  if (measured) {
    chosen = measured->strategy;
    plan.reason = measured->reason;
    plan.considered += "  device profile:\n" + measured->estimates;
  } else if (chosen == GpuStrategy::Auto) {
    if (fits_registers) {
      chosen = GpuStrategy::ThreadPrivate;
      plan.reason = fmt::format("{} slots x {} state fields fit each thread's table", product,
                                plan.layout.fields.size());
    } else if (auto_block && product * kBlockRowsPerSlot <= rows / in_blocks->grid) {
      chosen = GpuStrategy::Block;
      plan.reason = fmt::format("key domain of {} slots fits each block's shared memory", product);
    } else if (slices && !has_wide_cells(slices->placement.table) && slices->count <= auto_slices &&
               slices->slots * kBlockRowsPerSlot <= rows / slices->placement.grid) {
      chosen = GpuStrategy::Block;
      plan.reason = fmt::format(
          "key domain of {} slots fits each block's shared memory in {} slices, one pass over "
          "the rows each",
          product, slices->count);
    } else if (fits_direct && product <= std::max<uint64_t>(1ull << 16, 2 * rows)) {
      chosen = GpuStrategy::Direct;
      plan.reason = fmt::format("key domain of {} slots is known and small", product);
    } else {
      chosen = GpuStrategy::Hash;
      plan.reason =
          raw ? (plan.hash_keys == HashKeyLayout::Decimal128
                     ? "a DECIMAL wider than 18 digits is hashed by value"
                     : "a computed or unbounded key has no known domain")
              : fmt::format("key domain of {} slots is too large for direct slots", product);
    }
  } else {
    plan.reason = "forced by --strategy";
    if (sketches && (chosen == GpuStrategy::ThreadPrivate || chosen == GpuStrategy::Block)) {
      unsupported_on_gpu(
          "--strategy thread or block with APPROX_COUNT_DISTINCT (a 1 KiB sketch a group)");
    }
    if (chosen == GpuStrategy::ThreadPrivate && !fits_registers) {
      unsupported_on_gpu(fmt::format("--strategy thread with {} slots x {} state fields", product,
                                     plan.layout.fields.size()));
    }
    if (chosen == GpuStrategy::Hash && query.group_keys.empty()) {
      unsupported_on_gpu("--strategy hash without GROUP BY (one group has no key to hash)");
    }
    if (chosen == GpuStrategy::Direct && !fits_direct) {
      unsupported_on_gpu("--strategy direct with an unbounded or very large key domain");
    }
    if (chosen == GpuStrategy::Block && !fits_block && !slices) {
      unsupported_on_gpu(fits_direct
                             ? fmt::format("--strategy block with {} slots whose states do not "
                                           "fit a block's shared memory",
                                           product)
                             : "--strategy block with an unbounded or very large key domain");
    }
  }
  plan.strategy = chosen;
  plan.distinct_capacity = distinct_capacity(query, plan.layout, stats, rows, raw ? rows : product);
  if (chosen == GpuStrategy::Hash) {
    uint64_t estimate = raw ? rows : std::min(product, rows);
    plan = with_hash_capacity(plan, std::max(kMinHashCapacity, next_pow2(2 * estimate)));
    place_block_cache(plan, query, stats, limits);
    return plan;
  }
  plan.slots = product;
  plan.state_slots = product;
  if (chosen == GpuStrategy::Direct) place_block_cache(plan, query, stats, limits);
  if (chosen == GpuStrategy::Block) {
    if (!fits_block) {
      in_blocks = std::move(slices->placement);
      plan.scan_slices = slices->count;
      plan.slice_slots = slices->slots;
    }
    plan.block = in_blocks->block;
    plan.grid = in_blocks->grid;
    plan.blocks_per_sm = in_blocks->blocks_per_sm;
    plan.block_table = std::move(in_blocks->table);
    if (!plan.sliced()) place_block_copies(plan, query, stats, limits);
    plan.reason += fmt::format("; {} bytes a block, {} blocks of {} threads an SM",
                               plan.block_table.shared_bytes, plan.blocks_per_sm, plan.block);
  }
  if (chosen == GpuStrategy::ThreadPrivate) {
    // The register scan waits on each row's loads before the next; shared tables walk whole
    // 1024-row blocks unrolled (H200: 2 groups 0.287 -> 0.102 ms at 2^27 rows, TPC-H Q6 at
    // SF 10 0.32 -> 0.18). Blocks of 128 keep the static table under 48 KB.
    place_thread_tables_in_shared(plan, query, stats, limits);
    if (!plan.shared_thread_tables) plan.reason += "; in registers (over a block's 48 KB shared)";
    plan.thread_tables = plan_thread_tables(plan.layout, query, stats, rows, plan.grid, plan.block,
                                            plan.slots, plan.shared_thread_tables);
  }
  // Thread and block tables merge into the global states only at the end of the Scan: its
  // first block can set their identities while the others read rows.
  // Slices run the Scan several times: the states take their identities from Init first.
  plan.launches = aggregation_launches(
      chosen == GpuStrategy::ThreadPrivate || (chosen == GpuStrategy::Block && !plan.sliced()),
      plan.layout.second_pass());
  place_distinct_bitmaps(plan, query, stats, rows);
  return plan;
}

}  // namespace tally
