#include "compiler/codegen/group_slot.h"

#include <fmt/format.h>

namespace tally {

namespace {

// The 64 bits a raw (hashed) key is stored as: a DOUBLE's canonical bits, else the value.
std::string raw_key_bits(const AggregationContext& ctx, size_t i, const CudaOperand& key) {
  return ctx.query.group_keys[i]->type.is_float() ? fmt::format("float_key_bits({})", key.value)
                                                  : fmt::format("(u64)(i64){}", key.value);
}

// The bounded keys' digits into `mr`; the index of the one raw key, or -1.
int add_digits(const AggregationContext& ctx, const std::vector<CudaOperand>& keys,
               std::string& s) {
  int raw = -1;
  for (size_t i = 0; i < keys.size(); ++i) {
    const KeyEncoding& k = ctx.plan.keys[i];
    if (!k.bounded) {
      raw = static_cast<int>(i);
      continue;
    }
    const std::string v = fmt::format("(i64){}", keys[i].value);
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

}  // namespace

std::string group_slot_code(AggregationContext& ctx, bool find_only) {
  const GpuPlan& plan = ctx.plan;
  const char* lookup = find_only ? "find" : "insert_or_find";
  std::string s;
  std::vector<CudaOperand> keys;
  for (const auto& k : ctx.query.group_keys) keys.push_back(ctx.emitter.emit(*k, s));
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
  const int raw = add_digits(ctx, keys, s);  // RawAndDigits128: its raw bits fill the low word
  s += "if (!mr.in_range) { raise_status(status, kStatusKeyOutOfRange); continue; }\n";
  if (raw >= 0) {
    // The NULL flag is the last digit; a NULL key's low word is 0, so all NULLs meet.
    const CudaOperand& key = keys[raw];
    s += fmt::format(
        "mr.add_digit({0} ? 1ull : 0ull, 2ull);\n"
        "const i64 slot = table.{1}(Key128{{{0} ? 0ull : {2}, mr.slot}});\n"
        "if (slot < 0) continue;\n",
        key.null, lookup, raw_key_bits(ctx, static_cast<size_t>(raw), key));
    return s;
  }
  if (plan.strategy == GpuStrategy::Hash) {
    s += fmt::format("const i64 slot = table.{}(mr.slot);\nif (slot < 0) continue;\n", lookup);
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
