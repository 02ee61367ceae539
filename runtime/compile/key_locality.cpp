#include "runtime/compile/key_locality.h"

#include <algorithm>
#include <random>
#include <unordered_set>

#include "compiler/common/error.h"
#include "compiler/eval/evaluator.h"
#include "compiler/plan/key_encoding.h"
#include "runtime/compile/group_estimate.h"

namespace tally {

namespace {

constexpr uint64_t kWindows = 4;
constexpr uint64_t kSamplesPerWindow = 256;

bool placeable(const Type& t, const KeyEncoding& key) {
  return key.dictionary_column >= 0 || t.is_integer() || t.is_datetime() ||
         (t.is_decimal() && !t.is_wide_decimal());
}

// A key's digit in `row`, as the Scan computes it: a string column's dictionary code (the
// sample's interned string would not say where its slot is), else the value less the minimum.
uint64_t key_digit(const BoundSelect& query, const Table& table, size_t row, const Expr& expr,
                   const KeyEncoding& key, const EvalContext& ctx) {
  if (key.dictionary_column >= 0) {
    const Column& codes =
        *table.columns[query.scan[static_cast<size_t>(key.dictionary_column)].table_column];
    return codes.is_valid(row) ? static_cast<uint64_t>(codes.get_int(row)) : key.values;
  }
  const Value v = evaluate(expr, ctx);
  return v.null ? key.values
                : static_cast<uint64_t>(key_digit_value(key, v.i)) - static_cast<uint64_t>(key.min);
}

struct DigitSpan {
  uint64_t lo = ~0ull, hi = 0;
  void add(uint64_t digit) {
    lo = std::min(lo, digit);
    hi = std::max(hi, digit);
  }
};

// The product of the spans, saturated at `slots`.
uint64_t spanned_slots(const std::vector<DigitSpan>& spans, uint64_t slots) {
  uint64_t product = 1;
  for (const DigitSpan& s : spans) {
    const uint64_t span = s.hi - s.lo + 1;
    if (span >= slots || product > slots / span) return slots;
    product *= span;
  }
  return std::min(product, slots);
}

}  // namespace

std::optional<KeyLocality> sample_key_locality(const BoundSelect& query, const Table& table,
                                               const GpuPlan& plan,
                                               const std::vector<Value>& parameters,
                                               uint64_t window_rows) {
  if (plan.keys.size() != query.group_keys.size()) return std::nullopt;
  for (size_t k = 0; k < plan.keys.size(); ++k) {
    if (!plan.keys[k].bounded || !placeable(query.group_keys[k]->type, plan.keys[k])) {
      return std::nullopt;
    }
  }
  const uint64_t rows = table.rows();
  KeyLocality locality;
  if (rows == 0) return locality;
  const uint64_t window = std::clamp<uint64_t>(window_rows, 1, rows);
  StringHeap strings;
  EvalContext ctx;
  ctx.parameters = parameters.data();
  ctx.parameter_count = parameters.size();
  ctx.strings = &strings;
  std::mt19937_64 random(0x10ca1u);  // a fixed seed: a plan is reproducible
  std::vector<Value> values;
  const std::vector<bool> used = key_and_filter_columns(query);
  std::unordered_set<uint64_t> seen;
  for (uint64_t w = 0; w < kWindows; ++w) {
    const uint64_t start = (rows - window) / (kWindows - 1) * w;
    std::vector<DigitSpan> spans(plan.keys.size());
    bool sampled = false;
    for (uint64_t i = 0; i < kSamplesPerWindow; ++i) {
      const uint64_t row = start + random() % window;
      read_scan_row(query, table, row, strings, values, &used);
      ctx.columns = values.data();
      try {
        if (query.filter && !is_true(evaluate(*query.filter, ctx))) continue;
        uint64_t slot = 0, stride = 1;  // as the Scan's MixedRadix computes it
        for (size_t k = 0; k < plan.keys.size(); ++k) {
          const uint64_t digit =
              key_digit(query, table, row, *query.group_keys[k], plan.keys[k], ctx);
          spans[k].add(digit);
          slot += digit * stride;
          stride *= plan.keys[k].radix();
        }
        seen.insert(slot);
        ++locality.sampled;
        sampled = true;
      } catch (const Error&) {
        continue;  // the query itself reports a row that raises an error
      }
    }
    if (sampled) {
      locality.window_slots = std::max(locality.window_slots, spanned_slots(spans, plan.slots));
    }
  }
  locality.distinct = seen.size();
  return locality;
}

}  // namespace tally
