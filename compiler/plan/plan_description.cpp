// The names of strategies and key layouts, and --explain's text of a GPU plan: the strategy
// and why, each key's digit or hash, the tables on chip and what else was considered.
#include <fmt/format.h>

#include "compiler/common/error.h"
#include "compiler/plan/distinct_bitmaps.h"
#include "compiler/plan/gpu_plan.h"
#include "compiler/plan/key_encoding.h"
#include "compiler/plan/shared_placement.h"

namespace tally {

const char* strategy_name(GpuStrategy s) {
  switch (s) {
    case GpuStrategy::Auto:
      return "auto";
    case GpuStrategy::ThreadPrivate:
      return "thread";
    case GpuStrategy::Direct:
      return "direct";
    case GpuStrategy::Hash:
      return "hash";
    case GpuStrategy::Block:
      return "block";
  }
  return "?";
}

GpuStrategy strategy_from_name(const std::string& name) {
  for (GpuStrategy s : {GpuStrategy::Auto, GpuStrategy::ThreadPrivate, GpuStrategy::Direct,
                        GpuStrategy::Hash, GpuStrategy::Block}) {
    if (name == strategy_name(s)) return s;
  }
  throw Error(ErrorKind::Unsupported,
              fmt::format("unknown strategy \"{}\" (auto, thread, block, direct or hash)", name));
}

const char* hash_key_layout_name(HashKeyLayout layout) {
  switch (layout) {
    case HashKeyLayout::Word64:
      return "64-bit words";
    case HashKeyLayout::RawAndDigits128:
      return "128-bit (lo = the raw key, hi = the digits with its NULL flag last)";
    case HashKeyLayout::Decimal128:
      return "128-bit (the DECIMAL value)";
    case HashKeyLayout::KeyWords:
      return "64-bit words (word 0 = the digits with the raw keys' NULL flags, then each raw "
             "key), claimed by a mark";
  }
  return "?";
}

namespace {

// The block table's (or cache's) cell types, first-pass fields only; a packed field as its
// bits of a 64-bit word.
std::string block_cell_names(const GpuPlan& plan) {
  const PackedCells& packed = plan.block_table.packed;
  std::string cells;
  for (size_t f = 0; f < plan.block_table.cells.size(); ++f) {
    if (field_info(plan.layout.fields[f].kind).second_pass) continue;
    const bool in_word = f < packed.place.size() && packed.place[f].word >= 0;
    cells += fmt::format(
        "{}{}", cells.empty() ? "" : ", ",
        in_word ? fmt::format("{} bits of u64 word {}", packed.place[f].bits, packed.place[f].word)
                : cell_type_name(plan.block_table.cells[f]));
  }
  return cells;
}

std::string raw_key_text(HashKeyLayout layout, const KeyEncoding& k) {
  switch (layout) {
    case HashKeyLayout::RawAndDigits128:
      return "raw 64-bit value in the low word, NULL as a digit of the high word, hashed";
    case HashKeyLayout::Decimal128:
      return k.nullable ? "128-bit value, hashed; NULL in its own slot" : "128-bit value, hashed";
    case HashKeyLayout::KeyWords:
      return "raw value in words of its own, NULL as a digit of word 0, hashed";
    default:
      return "raw 64-bit value, hashed";
  }
}

// Where the second pass (DOUBLE variances: deviations from the first pass's means) merges.
std::string second_pass_text(const GpuPlan& plan) {
  const uint64_t block_bytes = second_pass_block_bytes(plan);
  std::string where;
  if (plan.strategy == GpuStrategy::ThreadPrivate) {
    where = plan.shared_thread_tables ? "each thread's table in shared memory"
                                      : "each thread's table in registers";
  } else if (block_bytes > 0) {
    where = fmt::format("a block table of {} slots x {} f64 cells ({} bytes of shared memory)",
                        plan.slots, block_bytes / 8 / plan.slots, block_bytes);
  } else {
    where = "the global states, with atomics";
  }
  return "  second pass: deviations from the first pass's means, merged into " + where + "\n";
}

}  // namespace

std::string describe_plan(const GpuPlan& plan) {
  if (plan.projection) return describe_projection_plan(plan);
  std::string out =
      fmt::format("GPU strategy: {} ({})\n", strategy_name(plan.strategy), plan.reason);
  for (size_t i = 0; i < plan.keys.size(); ++i) {
    const auto& k = plan.keys[i];
    if (k.bounded && k.period != 0) {
      const std::string unit = period_name(k.period);
      out += fmt::format(
          "  key{}: digit = the {} holding the date, counted from {} {}, in [0, {}){}\n", i, unit,
          unit, k.min, k.values, k.nullable ? " + NULL digit" : "");
    } else if (k.bounded) {
      out += fmt::format("  key{}: digit = value - {} in [0, {}){}\n", i, k.min, k.values,
                         k.nullable ? " + NULL digit" : "");
    } else {
      out += fmt::format("  key{}: {}\n", i, raw_key_text(plan.hash_keys, k));
    }
  }
  if (plan.strategy == GpuStrategy::Block && plan.sliced()) {
    out += fmt::format(
        "  block table: {} slices of {} slots, one Scan pass each, x ({}) = {} bytes of shared "
        "memory a block\n",
        plan.scan_slices, plan.slice_slots, block_cell_names(plan), plan.block_table.shared_bytes);
  } else if (plan.strategy == GpuStrategy::Block && plan.block_replicas > 1) {
    out += fmt::format(
        "  block table: {} slots x ({}) x {} copies (lane l merges into copy l % {}) = {} bytes "
        "of shared memory a block\n",
        plan.slots, block_cell_names(plan), plan.block_replicas, plan.block_replicas,
        plan.block_table.shared_bytes);
  } else if (plan.strategy == GpuStrategy::Block) {
    out += fmt::format("  block table: {} slots x ({}) = {} bytes of shared memory a block\n",
                       plan.slots, block_cell_names(plan), plan.block_table.shared_bytes);
  }
  if (plan.block_cache_slots > 0) {
    out += fmt::format(
        "  block cache: {} slots x ({}, u32 tag) = {} bytes of shared memory a block, in front "
        "of the global states\n",
        plan.block_cache_slots, block_cell_names(plan), plan.block_table.shared_bytes);
  }
  if (plan.strategy == GpuStrategy::Hash && plan.hash_keys != HashKeyLayout::Word64) {
    out += plan.hash_keys == HashKeyLayout::KeyWords
               ? fmt::format("  hash keys: {} x {}\n", plan.hash_key_words,
                             hash_key_layout_name(plan.hash_keys))
               : fmt::format("  hash keys: {}\n", hash_key_layout_name(plan.hash_keys));
  }
  if (plan.spread_multiplier != 0) {
    out += fmt::format("  slot = keys' mixed-radix value x {} mod {} (neighbours spread)\n",
                       plan.spread_multiplier, plan.slots);
  }
  out += fmt::format("  slots: {}  state slots: {}  grid: {} x {} threads\n", plan.slots,
                     plan.state_slots, plan.grid, plan.block);
  out += plan.considered;
  if (plan.having_on_device())
    out += "  HAVING: in the Finalizer, only the groups it keeps come back\n";
  if (plan.layout.second_pass()) out += second_pass_text(plan);
  for (size_t a = 0; a < plan.layout.aggregate_states.size(); ++a) {
    if (plan.layout.aggregate_states[a] == StateKind::CountDistinctBits) {
      out += fmt::format(
          "  agg{}: the values seen as one word's bits (bit = value - {}), merged by OR and "
          "counted at the end: no DISTINCT set\n",
          a, plan.layout.distinct_base[a]);
    } else if (in_distinct_bitmap(plan, a)) {
      out += fmt::format(
          "  agg{}: the values seen as bits of a bitmap, {} a slot (bit = value - {}), the first "
          "sighting's atomic OR counts: no DISTINCT set\n",
          a, plan.distinct_bitmaps[a].values, plan.distinct_bitmaps[a].base);
    }
  }
  if (plan.distinct_capacity > 0) {
    out += fmt::format("  DISTINCT set: {} entries (grown and rerun if it fills)\n",
                       plan.distinct_capacity);
  }
  if (plan.streamed) {
    out += plan.emit_states
               ? "  scan: once per batch of rows; the Finalizer writes state fields to combine\n"
               : "  scan: once per batch of rows (states set by Init)\n";
  }
  return out;
}

}  // namespace tally
