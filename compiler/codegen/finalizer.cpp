#include "compiler/codegen/finalizer.h"

#include <fmt/format.h>

#include <string_view>

#include "compiler/codegen/group_slot.h"

namespace tally {

namespace {

std::string occupied(const AggregationContext& ctx) {
  const GpuPlan& plan = ctx.plan;
  if (plan.keys.empty()) return "true";
  const std::string& rows = ctx.fields[0];
  if (plan.strategy != GpuStrategy::Hash) return fmt::format("{}[slot] != 0", rows);
  // Probed slots and the side slot are claimed in the key array; the NULL slot by rows.
  return fmt::format("(slot <= {0}ull ? table.occupied(slot) : {1}[slot] != 0)", plan.slots, rows);
}

std::string key_outputs(const AggregationContext& ctx) {
  const GpuPlan& plan = ctx.plan;
  std::string b;
  const size_t nk = plan.keys.size();
  if (nk == 0) return b;
  if (plan.hash_keys == HashKeyLayout::Decimal128) {
    // The NULL slot (capacity + 1) lies past the key array: its key is not read.
    return fmt::format(
        "const Key128 key = slot <= {0}ull ? table.key_at(slot) : Key128{{0ull, 0ull}};\n"
        "out_keys[group] = i128_from_words(key.lo, key.hi);\n"
        "out_key_nulls[group] = slot == {1}ull;\n",
        plan.slots, plan.slots + 1);
  }
  if (plan.hash_keys == HashKeyLayout::Word64 && !plan.keys[0].bounded) {
    // As above: the NULL slot's key word would lie one past the key array.
    return fmt::format(
        "const u64 bits = slot <= {0}ull ? table.key_at(slot) : 0ull;\n"
        "out_keys[group] = {1};\nout_key_nulls[group] = slot == {2}ull;\n",
        plan.slots, raw_key_value(ctx, 0, "bits"), plan.slots + 1);
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
                                            : "const u64 encoded = slot;\n";
  }
  uint64_t stride = 1;
  for (size_t i = 0; i < nk; ++i) {
    const KeyEncoding& k = plan.keys[i];
    if (!k.bounded) continue;  // a raw key of the wide layouts, decoded below
    b += fmt::format(
        "{{ const u64 digit = mixed_radix_digit(encoded, {}ull, {}ull);\n"
        "out_key_nulls[group * {} + {}] = {};\n"
        "out_keys[group * {} + {}] = (i128)({}ll + (i64)digit); }}\n",
        stride, k.radix(), nk, i, k.nullable ? fmt::format("digit == {}ull", k.values) : "false",
        nk, i, k.min);
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
        "out_key_nulls[group * {1} + {2}] = null;\n"
        "out_keys[group * {1} + {2}] = null ? (i128)0 : {3}; }}\n",
        stride, nk, i, value);
    stride *= 2;
  }
  return b;
}

std::string final_code(const AggregationContext& ctx, size_t a) {
  const auto& call = ctx.query.aggregates[a];
  const size_t na = ctx.query.aggregates.size();
  DeviceFinal d;
  for (int id : ctx.plan.layout.aggregate_fields[a]) {
    d.fields.push_back(fmt::format("{}[slot]", ctx.fields[static_cast<size_t>(id)]));
  }
  d.out = fmt::format("out_values[group * {} + {}]", na, a);
  d.null = fmt::format("out_value_nulls[group * {} + {}]", na, a);
  d.in_scale = call.arg && call.arg->type.is_decimal() ? call.arg->type.scale : 0;
  d.out_scale = call.type.scale;
  d.float_out = call.type.is_float();
  d.hugeint_out = call.type.is_hugeint();
  return state_info(ctx.plan.layout.aggregate_states[a]).device_final(d);
}

// Every state field as one 16-byte cell rather than the finals, so that parts of a table run
// apart combine exactly on the host (compiler/plan/partial_states.h).
std::string state_cells_code(const AggregationContext& ctx) {
  const size_t count = ctx.fields.size();
  std::string b;
  for (size_t f = 0; f < count; ++f) {
    const std::string field = fmt::format("{}[slot]", ctx.fields[f]);
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

}  // namespace

std::string state_slot_loop_head(const GpuPlan& plan, bool one_block) {
  return fmt::format("for (u64 slot = {}; slot < {}ull; slot += {})",
                     one_block ? "threadIdx.x" : "global_thread_index()", plan.state_slots,
                     one_block ? "blockDim.x" : "grid_stride()");
}

std::string finalize_body(AggregationContext& ctx) {
  // A no-op unless launched as the Scan's dependent; then the Scan's states are complete.
  std::string b = "wait_for_prior_grid();\n" + state_slot_loop_head(ctx.plan, false) + " {\n";
  b += fmt::format("if (!({})) continue;\n", occupied(ctx));
  b += "const u64 group = atomicAdd(out_count, 1ull);\n";
  b += key_outputs(ctx);
  if (ctx.plan.emit_states) {
    b += state_cells_code(ctx);
  } else {
    for (size_t a = 0; a < ctx.query.aggregates.size(); ++a) b += final_code(ctx, a);
  }
  b += "}\n";
  return b;
}

}  // namespace tally
