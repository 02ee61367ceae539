#include "compiler/codegen/group_slot.h"

#include <fmt/format.h>

namespace tally {

namespace {

// The 64 bits a raw (hashed) key is stored as: a DOUBLE's canonical bits, else the value.
std::string raw_key_bits(const AggregationContext& ctx, size_t i, const CudaOperand& key) {
  return ctx.query.group_keys[i]->type.is_float() ? fmt::format("float_key_bits({})", key.value)
                                                  : fmt::format("(u64)(i64){}", key.value);
}

// The bounded keys' digits into `mr`; the indexes of the raw keys.
std::vector<size_t> add_digits(const AggregationContext& ctx, const std::vector<CudaOperand>& keys,
                               std::string& s) {
  std::vector<size_t> raw;
  for (size_t i = 0; i < keys.size(); ++i) {
    const KeyEncoding& k = ctx.plan.keys[i];
    if (!k.bounded) {
      raw.push_back(i);
      continue;
    }
    // A period key's operand is date_trunc's argument (group_key_operands): its period's index.
    const std::string v = k.period == 0 ? fmt::format("(i64){}", keys[i].value)
                                        : fmt::format("tally_dates::period_index32((i64){}, {})",
                                                      keys[i].value, k.period);
    const char* exact = k.exact ? "exact_" : "";
    if (k.nullable) {
      s += fmt::format("mr.add_{}nullable_key(!{}, {}, {}ll, {}ull);\n", exact, keys[i].null, v,
                       k.min, k.values);
    } else if (k.exact) {
      // Never NULL (the statistics say so) and in range: nothing to check.
      s += fmt::format("mr.add_exact_key({}, {}ll, {}ull);\n", v, k.min, k.values);
    } else {
      // The statistics say this key is never NULL; were it, the key would be out of range
      // (an internal error) rather than silently in the group of digit 0.
      s += fmt::format("mr.add_key({}, {}ll, {}ull);\nmr.in_range &= !{};\n", v, k.min, k.values,
                       keys[i].null);
    }
  }
  return raw;
}

// KeyWords: the raw keys' NULL flags as digits, then word 0 (the digits) and each raw key's
// bits, 0 when NULL (templates/tally_table_words.cuh).
std::string key_words_slot(const AggregationContext& ctx, const std::vector<CudaOperand>& keys,
                           const std::vector<size_t>& raw, const char* lookup) {
  std::string s;
  std::string words = "mr.slot";
  for (size_t i : raw) {
    const CudaOperand& key = keys[i];
    s += fmt::format("mr.add_digit({} ? 1ull : 0ull, 2ull);\n", key.null);
    if (ctx.query.group_keys[i]->type.is_wide()) {
      s += fmt::format("const i128 key{0}_value = {1} ? (i128)0 : (i128)({2});\n", i, key.null,
                       key.value);
      words += fmt::format(", i128_low(key{0}_value), i128_high(key{0}_value)", i);
    } else {
      words += fmt::format(", {} ? 0ull : {}", key.null, raw_key_bits(ctx, i, key));
    }
  }
  s += fmt::format(
      "const u64 key_words[{}] = {{{}}};\nconst i64 slot = table.{}(key_words);\n"
      "if (slot < 0) continue;\n",
      static_cast<int>(ctx.plan.hash_key_words), words, lookup);
  return s;
}

// Sets up to this many unroll, so that each set's kept keys fold into its copy of the body.
constexpr size_t kUnrolledSets = 8;

// A key the row's set drops is NULL there (its value is then never read).
void drop_keys_outside_set(const AggregationContext& ctx, std::vector<CudaOperand>& keys) {
  if (ctx.query.grouping_sets.empty()) return;
  for (size_t k = 0; k + 1 < keys.size(); ++k) {
    bool dropped_somewhere = false;
    for (uint64_t mask : ctx.query.grouping_sets) dropped_somewhere |= !((mask >> k) & 1);
    if (!dropped_somewhere) continue;
    keys[k].null = fmt::format("({} || ((kept_keys >> {}) & 1ull) == 0ull)", keys[k].null, k);
  }
}

// Each key's value, or for a date_trunc key counted in periods (KeyEncoding::period) its
// argument: the period's index comes from any day of it, so the truncation is never computed.
std::vector<CudaOperand> group_key_operands(AggregationContext& ctx, std::string& s) {
  std::vector<CudaOperand> keys;
  for (size_t i = 0; i < ctx.query.group_keys.size(); ++i) {
    const Expr& k = *ctx.query.group_keys[i];
    const KeyEncoding& e = ctx.plan.keys[i];
    keys.push_back(ctx.emitter.emit(e.bounded && e.period != 0 ? *k.children[0] : k, s));
  }
  return keys;
}

}  // namespace

std::string grouping_set_declarations(const AggregationContext& ctx) {
  const std::vector<uint64_t>& sets = ctx.query.grouping_sets;
  if (sets.empty()) return "";
  std::string masks;
  for (size_t s = 0; s < sets.size(); ++s) masks += fmt::format("{}{}ull", s ? ", " : "", sets[s]);
  return fmt::format("const u64 grouping_set_keys[{}] = {{{}}};\n", sets.size(), masks);
}

std::string grouping_set_loop_head(const AggregationContext& ctx) {
  const size_t sets = ctx.query.grouping_sets.size();
  if (sets == 0) return "";
  return fmt::format(
      "#pragma unroll {}\nfor (u32 grouping_set = 0; grouping_set < {}u; ++grouping_set) {{\n"
      "const u64 kept_keys = grouping_set_keys[grouping_set];\n",
      sets <= kUnrolledSets ? "" : "1", sets);
}

std::string group_slot_code(AggregationContext& ctx, bool find_only) {
  const GpuPlan& plan = ctx.plan;
  const char* lookup = find_only ? "find" : "insert_or_find";
  std::string s;
  std::vector<CudaOperand> keys = group_key_operands(ctx, s);
  drop_keys_outside_set(ctx, keys);
  if (plan.hash_keys == HashKeyLayout::Decimal128) {
    s += fmt::format(
        "const i128 key_value = (i128)({});\n"
        "const i64 slot = {} ? (i64){}ull : table.{}(Key128{{i128_low(key_value), "
        "i128_high(key_value)}});\nif (slot < 0) continue;\n",
        keys[0].value, keys[0].null, plan.slots + 1, lookup);
    return s;
  }
  if (plan.hash_keys == HashKeyLayout::Word64 && !plan.keys.empty() && !plan.keys[0].bounded) {
    s += fmt::format(
        "const i64 slot = {} ? (i64){}ull : table.insert_or_find({});\nif (slot < 0) continue;\n",
        keys[0].null, plan.slots + 1, raw_key_bits(ctx, 0, keys[0]));
    return s;
  }
  s += "MixedRadix mr;\n";
  const std::vector<size_t> raw = add_digits(ctx, keys, s);
  s += "if (!mr.in_range) { raise_status(status, kStatusKeyOutOfRange); continue; }\n";
  if (plan.hash_keys == HashKeyLayout::KeyWords) return s + key_words_slot(ctx, keys, raw, lookup);
  if (!raw.empty()) {
    // RawAndDigits128: the raw bits fill the low word, the NULL flag is the last digit; a NULL
    // key's low word is 0, so all NULLs meet.
    const CudaOperand& key = keys[raw[0]];
    s += fmt::format(
        "mr.add_digit({0} ? 1ull : 0ull, 2ull);\n"
        "const i64 slot = table.{1}(Key128{{{0} ? 0ull : {2}, mr.slot}});\n"
        "if (slot < 0) continue;\n",
        key.null, lookup, raw_key_bits(ctx, raw[0], key));
    return s;
  }
  if (plan.strategy == GpuStrategy::Hash) {
    s += fmt::format("const i64 slot = table.{}(mr.slot);\nif (slot < 0) continue;\n", lookup);
  } else if (plan.spread_multiplier != 0) {
    s += fmt::format("const u64 slot = spread_slot(mr.slot, {}ull, {}ull);\n",
                     plan.spread_multiplier, plan.slots);
  } else {
    s += "const u64 slot = mr.slot;\n";
  }
  return s;
}

std::string raw_key_value(const AggregationContext& ctx, size_t key, const std::string& bits) {
  return ctx.query.group_keys[key]->type.is_float() ? fmt::format("(i128){}", bits)
                                                    : fmt::format("(i128)(i64){}", bits);
}

}  // namespace tally
