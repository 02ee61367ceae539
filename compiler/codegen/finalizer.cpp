#include "compiler/codegen/finalizer.h"

#include <fmt/format.h>

#include <algorithm>
#include <bit>
#include <string_view>

#include "compiler/codegen/group_slot.h"
#include "compiler/plan/device_having.h"
#include "compiler/plan/slot_spread.h"

namespace tally {

namespace {

// State field f's value at the slot: its array's cell, or for the row count and the sum
// packed beside it, the local that adds what the packed word holds.
std::string field_at(const AggregationContext& ctx, size_t f) {
  if (ctx.in_packed_word(f)) return ctx.packed_totals[f];
  return fmt::format("{}[slot]", ctx.fields[f]);
}

// A packed field's own cell at the slot, as a term of its total ("" where nothing wrote it).
std::string flushed_term(const AggregationContext& ctx, size_t f) {
  if (ctx.packed_fields_unused()) return "";
  return f == 0 ? fmt::format("{}[slot] + ", ctx.fields[f])
                : fmt::format("(i128){}[slot] + ", ctx.fields[f]);
}

std::string occupied(const AggregationContext& ctx) {
  const GpuPlan& plan = ctx.plan;
  if (plan.keys.empty()) return "true";
  const std::string rows = field_at(ctx, 0);
  if (plan.strategy != GpuStrategy::Hash) return fmt::format("{} != 0", rows);
  // Probed slots and the side slot are claimed in the key array; the NULL slot by rows.
  return fmt::format("(slot <= {0}ull ? table.occupied(slot) : {1} != 0)", plan.slots, rows);
}

// Where a group's cells go: the output arrays at the group's row, or, with HAVING on the
// device, the locals the predicate reads before the group takes a row.
struct CellTargets {
  bool local = false;
  size_t nk = 0, na = 0;

  std::string at(const char* out_array, const char* local_array, size_t count, size_t i) const {
    return local ? fmt::format("{}[{}]", local_array, i)
                 : fmt::format("{}[group * {} + {}]", out_array, count, i);
  }
  std::string key(size_t i) const { return at("out_keys", "group_keys", nk, i); }
  std::string key_null(size_t i) const { return at("out_key_nulls", "group_key_nulls", nk, i); }
  std::string value(size_t a) const { return at("out_values", "group_values", na, a); }
  std::string value_null(size_t a) const {
    return at("out_value_nulls", "group_value_nulls", na, a);
  }
};

std::string key_outputs(const AggregationContext& ctx, const CellTargets& t) {
  const GpuPlan& plan = ctx.plan;
  std::string b;
  const size_t nk = plan.keys.size();
  if (nk == 0) return b;
  if (plan.hash_keys == HashKeyLayout::Decimal128) {
    // The NULL slot (capacity + 1) lies past the key array: its key is not read.
    return fmt::format(
        "const Key128 key = slot <= {0}ull ? table.key_at(slot) : Key128{{0ull, 0ull}};\n"
        "{2} = i128_from_words(key.lo, key.hi);\n"
        "{3} = slot == {1}ull;\n",
        plan.slots, plan.slots + 1, t.key(0), t.key_null(0));
  }
  if (plan.hash_keys == HashKeyLayout::Word64 && !plan.keys[0].bounded) {
    // As above: the NULL slot's key word would lie one past the key array.
    return fmt::format(
        "const u64 bits = slot <= {0}ull ? table.key_at(slot) : 0ull;\n"
        "{3} = {1};\n{4} = slot == {2}ull;\n",
        plan.slots, raw_key_value(ctx, 0, "bits"), plan.slots + 1, t.key(0), t.key_null(0));
  }
  const bool words = plan.hash_keys == HashKeyLayout::KeyWords;
  const bool wide = plan.hash_keys == HashKeyLayout::RawAndDigits128 || words;
  if (words) {
    // Slot `capacity` and the NULL slot are never claimed: key_at reads inside the array.
    b += "const u64* key = table.key_at(slot);\nconst u64 encoded = key[0];\n";
  } else if (wide) {
    // Every occupied slot is a probed one (no NULL slot): key_at reads inside the array.
    b += "const Key128 key = table.key_at(slot);\nconst u64 encoded = key.hi;\n";
  } else {
    b += plan.strategy == GpuStrategy::Hash ? "const u64 encoded = table.key_at(slot);\n"
         : plan.spread_multiplier != 0
             ? fmt::format("const u64 encoded = spread_slot(slot, {}ull, {}ull);\n",
                           spread_inverse(plan), plan.slots)
             : "const u64 encoded = slot;\n";
  }
  uint64_t stride = 1;
  for (size_t i = 0; i < nk; ++i) {
    const KeyEncoding& k = plan.keys[i];
    if (!k.bounded) continue;  // a raw key of the wide layouts, decoded below
    const std::string index = fmt::format("{}ll + (i64)digit", k.min);
    b += fmt::format(
        "{{ const u64 digit = mixed_radix_digit(encoded, {}ull, {}ull);\n"
        "{} = {};\n"
        "{} = (i128)({}); }}\n",
        stride, k.radix(), t.key_null(i),
        k.nullable ? fmt::format("digit == {}ull", k.values) : "false", t.key(i),
        k.period == 0 ? index
                      : fmt::format("tally_dates::period_first_day({}, {})", index, k.period));
    stride *= k.radix();
  }
  size_t word = 1;  // KeyWords: the next raw key's first word
  for (size_t i = 0; wide && i < nk; ++i) {
    if (plan.keys[i].bounded) continue;
    std::string value = raw_key_value(ctx, i, "key.lo");
    if (words && ctx.query.group_keys[i]->type.is_wide()) {
      value = fmt::format("i128_from_words(key[{}], key[{}])", word, word + 1);
      word += 2;
    } else if (words) {
      value = raw_key_value(ctx, i, fmt::format("key[{}]", word++));
    }
    b += fmt::format(
        "{{ const bool null = mixed_radix_digit(encoded, {0}ull, 2ull) == 1ull;\n"
        "{1} = null;\n"
        "{2} = null ? (i128)0 : {3}; }}\n",
        stride, t.key_null(i), t.key(i), value);
    stride *= 2;
  }
  return b;
}

std::string final_code(const AggregationContext& ctx, size_t a, const CellTargets& t) {
  const auto& call = ctx.query.aggregates[a];
  DeviceFinal d;
  for (int id : ctx.plan.layout.aggregate_fields[a]) {
    d.fields.push_back(field_at(ctx, static_cast<size_t>(id)));
  }
  d.out = t.value(a);
  d.null = t.value_null(a);
  d.in_scale = call.arg && call.arg->type.is_decimal() ? call.arg->type.scale : 0;
  d.out_scale = call.type.scale;
  d.float_out = call.type.is_float();
  d.hugeint_out = call.type.is_hugeint();
  d.square_split = ctx.plan.layout.square_split.at(a);
  d.wide_value = call.arg && call.arg->type.is_wide_decimal();
  return state_info(ctx.plan.layout.aggregate_states[a]).device_final(d);
}

// Every state field as one 16-byte cell rather than the finals, so that parts of a table run
// apart combine exactly on the host (compiler/plan/partial_states.h).
std::string state_cells_code(const AggregationContext& ctx) {
  const size_t count = ctx.fields.size();
  std::string b;
  for (size_t f = 0; f < count; ++f) {
    const std::string field = field_at(ctx, f);
    const std::string_view type = field_info(ctx.state_fields()[f].kind).cuda_type;
    // u64 zero-extends and i64 sign-extends to i128; an f64 keeps its bits in the low word.
    const std::string cell = type == "f64"
                                 ? fmt::format("(i128)(u64)__double_as_longlong({})", field)
                                 : fmt::format("(i128){}", field);
    b += fmt::format(
        "out_values[group * {0} + {1}] = {2}; out_value_nulls[group * {0} + {1}] = 0;\n", count, f,
        cell);
  }
  return b;
}

// A cell as the expression emitter holds a value of `type` (compiler/codegen/cuda_expr.h):
// i128 for DECIMAL and HUGEINT, f64 from a double's bits, bool, else i64.
std::string cell_operand(const std::string& cell, const Type& type) {
  if (type.is_exact128()) return cell;
  if (type.is_float()) return fmt::format("__longlong_as_double((long long)(u64){})", cell);
  if (type.id == TypeId::Boolean) return fmt::format("({} != 0)", cell);
  return fmt::format("(i64){}", cell);
}

// The group's cells into locals and HAVING on them, for an occupied slot only (a final or the
// predicate may raise a status); a group HAVING drops takes no output row.
std::string having_group(const AggregationContext& ctx) {
  const CellTargets local{true, ctx.query.group_keys.size(), ctx.query.aggregates.size()};
  std::string b;
  if (local.nk > 0)
    b += fmt::format("i128 group_keys[{0}]; bool group_key_nulls[{0}];\n", local.nk);
  if (local.na > 0) {
    b += fmt::format("i128 group_values[{0}]; bool group_value_nulls[{0}];\n", local.na);
  }
  b += "if (keep) {\n" + key_outputs(ctx, local);
  for (size_t a = 0; a < local.na; ++a) b += final_code(ctx, a, local);
  b += ctx.having_code;
  b += fmt::format("keep = !({}) && ({});\n}}\n", ctx.having.null, ctx.having.value);
  return b;
}

}  // namespace

std::string state_slot_loop_head(const GpuPlan& plan, bool one_block) {
  return fmt::format("for (u64 slot = {}; slot < {}ull; slot += {})",
                     one_block ? "threadIdx.x" : "global_thread_index()", plan.state_slots,
                     one_block ? "blockDim.x" : "grid_stride()");
}

void emit_device_having(AggregationContext& ctx) {
  if (!ctx.plan.having_on_device()) return;
  std::vector<CudaOperand> keys, aggregates;
  for (size_t i = 0; i < ctx.query.group_keys.size(); ++i) {
    keys.push_back({cell_operand(fmt::format("group_keys[{}]", i), ctx.query.group_keys[i]->type),
                    fmt::format("group_key_nulls[{}]", i)});
  }
  for (size_t a = 0; a < ctx.query.aggregates.size(); ++a) {
    aggregates.push_back(
        {cell_operand(fmt::format("group_values[{}]", a), ctx.query.aggregates[a].type),
         fmt::format("group_value_nulls[{}]", a)});
  }
  ctx.emitter.set_group_operands(std::move(keys), std::move(aggregates));
  for (size_t i = 0; i < ctx.query.group_keys.size(); ++i) {
    const Expr& key = *ctx.query.group_keys[i];
    if (!string_column_key(key)) continue;
    ctx.emitter.set_column_operand(
        key.index, {fmt::format("(i64)group_keys[{}]", i), fmt::format("group_key_nulls[{}]", i)});
  }
  const ExprPtr having = having_over_string_key_columns(ctx.query);
  ctx.emitter.check_supported(*having);
  ctx.having = ctx.emitter.emit(*having, ctx.having_code);
}

namespace {

// The rows and the sum the Scan packed in one word (compiler/plan/count_sum_packing.h) join
// what a block cache flushed into their fields, in locals that the finals read: the
// fields are not written back, since nothing reads them after the Finalizer. Also raises
// kStatusPackedSumAmbiguous for a group whose sum may have wrapped.
std::string unpack_count_sum(const AggregationContext& ctx) {
  if (!ctx.packing.packs()) return "";
  const CountSumPacking& p = ctx.packing;
  const size_t sum = static_cast<size_t>(p.field);
  const std::string take =
      p.count_bits == 0
          ? fmt::format("packed_count_sum_read({}[slot], {}[slot])", ctx.packed_counts,
                        ctx.pack_carries)
          : fmt::format("packed_low_count_read({}[slot], {}u)", ctx.packed_counts, p.count_bits);
  const std::string offset =
      p.offset == 0 ? "" : fmt::format(" + (i128)({}ll) * (i128)taken.rows", p.offset);
  const std::string check =
      p.count_bits == 0 || p.exact_rows == ~0ull
          ? ""
          : fmt::format(
                "if (taken.rows > {}ull) raise_status(status, kStatusPackedSumAmbiguous);\n",
                p.exact_rows);
  const std::string_view sum_type = field_info(ctx.state_fields()[sum].kind).cuda_type;
  return fmt::format(
      "const PackedCountSum taken = {};\nconst {} {} = {}taken.rows;\n{}"
      "const {} {} = ({})({}(i128)taken.sum{});\n",
      take, field_info(ctx.state_fields()[0].kind).cuda_type, ctx.packed_totals[0],
      flushed_term(ctx, 0), check, sum_type, ctx.packed_totals[sum], sum_type,
      flushed_term(ctx, sum), offset);
}

// Slots a lane looks at before its warp claims their groups' rows: one below 2^23 slots, up
// to 16 (at least 2^17 claims). On an H200 (bench/RESULTS.md, session 40) 60 M slots a
// quarter used took 1.97 ms at 1, 0.54 at 8 and 0.43 at 16, but all-used 2^24 slots were
// fastest at 4, and a HAVING that kept few groups slowed from 0.15 ms at 8 to 0.20 at 16.
uint32_t slots_a_lane(const GpuPlan& plan) {
  return static_cast<uint32_t>(std::bit_floor(std::clamp<uint64_t>(plan.state_slots >> 22, 1, 16)));
}

}  // namespace

std::string finalize_body(AggregationContext& ctx) {
  const uint64_t slots = ctx.plan.state_slots;
  const uint32_t per_lane = slots_a_lane(ctx.plan);
  const bool having = ctx.plan.having_on_device();
  // A warp's round: lane l's j-th slot is first + 32 j + l. The first loop finds the groups
  // (with HAVING on the device, the groups it keeps), the warp claims their rows, and the
  // second loop reads those slots again to write them (templates/tally_output_rows.cuh).
  // A no-op unless launched as the Scan's dependent; then the Scan's states are complete.
  const std::string slot_at = "const u64 slot = first + 32 * j + (threadIdx.x & 31);\n";
  std::string b = fmt::format(
      "wait_for_prior_grid();\n"
      "for (u64 first = global_thread_index() / 32 * {0}; first < {1}ull; "
      "first += grid_stride() / 32 * {0}) {{\n"
      "u32 kept = 0;\n"
      "#pragma unroll {4}\n"
      "for (u32 j = 0; j < {2}; ++j) {{\n{3}"
      "if (slot >= {1}ull) break;\n",
      32 * per_lane, slots, per_lane, slot_at, std::min(per_lane, 4u));
  std::string unpack = unpack_count_sum(ctx);
  // Either loop may read neither total: the first needs only whether a slot is used (a hash
  // table's keys say), the second only what the finals read.
  if (ctx.packing.packs()) {
    unpack += fmt::format("(void){}; (void){};\n", ctx.packed_totals[0],
                          ctx.packed_totals[static_cast<size_t>(ctx.packing.field)]);
  }
  b += unpack + fmt::format("bool keep = {};\n", occupied(ctx));
  if (having) b += having_group(ctx);
  b += "kept |= (u32)keep << j;\n}\n";
  b += fmt::format(
      "WarpOutputRows rows = WarpOutputRows::claim(kept, out_count);\n"
      "for (u32 j = 0; j < {}; ++j) {{\n"
      "const u64 group = rows.take(kept, j);\n"
      "if (((kept >> j) & 1u) == 0) continue;\n{}",
      per_lane, slot_at);
  // A kept group's cells go straight to its row: HAVING already chose it in the first loop.
  b += unpack;
  const CellTargets out{false, ctx.query.group_keys.size(), ctx.query.aggregates.size()};
  b += key_outputs(ctx, out);
  if (ctx.plan.emit_states) {
    b += state_cells_code(ctx);
  } else {
    for (size_t a = 0; a < out.na; ++a) b += final_code(ctx, a, out);
  }
  b += "}\n}\n";
  return b;
}

}  // namespace tally
