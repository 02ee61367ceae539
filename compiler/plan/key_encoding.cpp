#include "compiler/plan/key_encoding.h"

#include <fmt/format.h>

#include <algorithm>
#include <optional>

#include "compiler/common/error.h"
#include "compiler/ir/grouping_sets.h"
#include "compiler/plan/expr_facts.h"
#include "compiler/plan/string_domain.h"
#include "compiler/plan/value_bounds.h"
#include "templates/tally_date_parts.cuh"

namespace tally {

namespace {

// date_trunc's DATE units whose periods a key counts (KeyEncoding::period), with --explain's
// word for them.
struct PeriodUnit {
  int unit;  // DateUnit
  int16_t period;
  const char* name;
};
constexpr PeriodUnit kPeriodUnits[] = {{kUnitMonth, 1, "month"},
                                       {kUnitQuarter, 3, "quarter"},
                                       {kUnitYear, 12, "year"},
                                       {kUnitDecade, 120, "decade"},
                                       {kUnitWeek, tally_dates::kPeriodWeeks, "week"}};

int truncation_period(const Expr& key) {
  if (key.kind != ExprKind::Function || key.op != kDateTrunc || key.type.is_timestamp()) return 0;
  for (const PeriodUnit& u : kPeriodUnits) {
    if (u.unit == key.digits) return u.period;
  }
  return 0;
}

// A date_trunc key whose argument the interval analysis bounds: a digit per period between the
// lowest and highest date's (KeyEncoding::period), checked per row as computed keys are.
// Dates within 2^30 days of 1970 keep every period's first day a DATE.
std::optional<KeyEncoding> period_key(const Expr& key, const std::vector<ColumnStats>& stats,
                                      const BoundSelect& query,
                                      const std::vector<Value>* parameters) {
  const int period = truncation_period(key);
  if (period == 0) return std::nullopt;
  const ValueBounds b = value_bounds(*key.children[0], stats, parameters);
  if (!b.known || b.lo < -0x1p30L || b.hi > 0x1p30L) return std::nullopt;
  KeyEncoding k;
  k.period = period;
  k.min = tally_dates::period_index(static_cast<int64_t>(b.lo), period);
  k.values = static_cast<uint64_t>(tally_dates::period_index(static_cast<int64_t>(b.hi), period) -
                                   k.min + 1);
  k.nullable = may_be_null(key, query, stats);
  return k;
}

}  // namespace

const char* period_name(int period) {
  for (const PeriodUnit& u : kPeriodUnits) {
    if (u.period == period) return u.name;
  }
  return "?";
}

int64_t key_digit_value(const KeyEncoding& key, int64_t value) {
  return key.period == 0 ? value : tally_dates::period_index(value, key.period);
}

KeyEncoding encode_key(const Expr& key, const std::vector<ColumnStats>& stats,
                       const BoundSelect& query, const std::vector<Value>* parameters) {
  KeyEncoding k;
  if (key.kind == ExprKind::GroupingSetId) {  // a digit per grouping set, set by the Scan's loop
    k.exact = true;
    k.values = std::max<size_t>(1, query.grouping_sets.size());
    return k;
  }
  if (key.kind == ExprKind::ColumnRef) {
    const ColumnStats& s = stats[key.index];
    k.nullable = s.has_nulls;
    if (query.scan[key.index].type.is_string()) {
      k.exact = true;
      k.min = 0;
      k.values = std::max<uint64_t>(1, s.dictionary_size);
      k.dictionary_column = key.index;
      return k;
    }
    if (s.has_range) {
      k.min = s.min;
      k.values = static_cast<uint64_t>(s.max) - static_cast<uint64_t>(s.min) + 1;
      if (k.values != 0 && k.values <= (1ull << 62)) {
        k.exact = true;
        return k;
      }
    } else if (!s.has_values) {
      k.values = 1;  // no non-NULL value at all: only the NULL digit is ever used
      return k;
    }
  }
  if (key.type.is_string()) {
    // A computed string is a digit over its string domain (compiler/plan/string_domain.h).
    StringDomainShape shape = string_domain_shape(key, query, stats);
    k.values = std::max<uint64_t>(1, shape.bound);
    k.nullable = shape.nullable;
    return k;
  }
  if (std::optional<KeyEncoding> k = period_key(key, stats, query, parameters)) return *k;
  // A computed key the interval analysis bounds (MOD, EXTRACT, CASE, arithmetic, casts over
  // bounded inputs) is a digit too; the Scan checks each row against the range.
  const ValueBounds b = key.type.is_wide() ? ValueBounds{} : value_bounds(key, stats, parameters);
  if (b.known && b.hi - b.lo < 0x1p62L) {
    k.min = static_cast<int64_t>(b.lo);
    k.values = static_cast<uint64_t>(b.hi - b.lo) + 1;
    k.nullable = may_be_null(key, query, stats);
    return k;
  }
  // An unbounded computed key, or a DECIMAL(p>18) (an i128 value): hashed by value
  // (hash_key_layout).
  k.bounded = false;
  k.nullable = true;  // a computed key may be NULL: it owns the NULL slot
  return k;
}

void hold_dropped_keys_null(const BoundSelect& query, std::vector<KeyEncoding>& keys) {
  if (!is_one_pass_grouping_query(query)) return;
  for (uint64_t mask : query.grouping_sets) {
    for (size_t k = 0; k + 1 < keys.size(); ++k) {
      if (!((mask >> k) & 1)) keys[k].nullable = true;
    }
  }
}

uint64_t slot_product(const std::vector<KeyEncoding>& keys) {
  uint64_t product = 1;
  for (const auto& k : keys) {
    if (!k.bounded) return 0;
    if (k.radix() != 0 && product > (1ull << 62) / k.radix()) return 0;
    product *= k.radix();
  }
  return product;
}

namespace {

// The bounded keys' product of radices (0 when it passes 2^62), the unbounded ones left out.
uint64_t bounded_product(const std::vector<KeyEncoding>& keys) {
  std::vector<KeyEncoding> bounded;
  for (const auto& k : keys) {
    if (k.bounded) bounded.push_back(k);
  }
  return slot_product(bounded);
}

// Several bounded keys whose digits overflow one word: the numeric key of the largest
// domain goes raw into the low word instead (its value needs no digit).
bool unbind_widest_key(const BoundSelect& query, std::vector<KeyEncoding>& keys) {
  int widest = -1;
  for (size_t i = 0; i < keys.size(); ++i) {
    const Type& t = query.group_keys[i]->type;
    if (t.is_string() || t.is_wide() || keys[i].dictionary_column >= 0) continue;
    if (widest < 0 || keys[i].values > keys[widest].values) widest = static_cast<int>(i);
  }
  if (widest < 0) return false;
  keys[widest].bounded = false;
  keys[widest].period = 0;  // raw, the key is date_trunc's value
  return true;
}

// Whether the bounded keys' digits, and `flags` more digits of radix 2, fit one 64-bit word.
bool digits_fit(const std::vector<KeyEncoding>& keys, size_t flags) {
  const uint64_t product = bounded_product(keys);
  return product != 0 && flags < 64 && product <= (~0ull >> flags);
}

// Words of a raw key in the KeyWords layout: a DECIMAL(p>18) takes two.
size_t raw_key_words(const Expr& key) { return key.type.is_wide() ? 2 : 1; }

// The most words a KeyWords key may take (the Scan keeps a key in registers).
constexpr size_t kMaxKeyWords = 8;

// The KeyWords layout: the raw keys' bits beside one word of digits (their NULL flags among
// them). Bounded keys whose digits do not fit that word go raw, widest first.
HashKeyLayout key_words_layout(const BoundSelect& query, std::vector<KeyEncoding>& keys,
                               uint8_t& words) {
  auto raw_count = [&] {
    return static_cast<size_t>(
        std::count_if(keys.begin(), keys.end(), [](const KeyEncoding& k) { return !k.bounded; }));
  };
  while (!digits_fit(keys, raw_count())) {
    if (!unbind_widest_key(query, keys)) {
      unsupported_on_gpu("GROUP BY string keys whose domains together pass 2^62");
    }
  }
  size_t total = 1;
  for (size_t i = 0; i < keys.size(); ++i) {
    if (!keys[i].bounded) total += raw_key_words(*query.group_keys[i]);
  }
  if (total > kMaxKeyWords) {
    unsupported_on_gpu(
        fmt::format("GROUP BY keys that take {} 64-bit words (more than {})", total, kMaxKeyWords));
  }
  words = static_cast<uint8_t>(total);
  return HashKeyLayout::KeyWords;
}

}  // namespace

HashKeyLayout hash_key_layout(const BoundSelect& query, std::vector<KeyEncoding>& keys,
                              uint8_t& words) {
  const auto& exprs = query.group_keys;
  // A HUGEINT takes every 128-bit value, Decimal128's EMPTY marker too: its keys go to
  // KeyWords, whose slots are marked apart from their keys.
  if (keys.size() == 1 && !(exprs[0]->type.is_hugeint() && !keys[0].bounded)) {
    return exprs[0]->type.is_wide() && !keys[0].bounded ? HashKeyLayout::Decimal128
                                                        : HashKeyLayout::Word64;
  }
  std::vector<size_t> raw;
  for (size_t i = 0; i < keys.size(); ++i) {
    if (!keys[i].bounded) raw.push_back(i);
  }
  if (raw.empty()) {
    if (!unbind_widest_key(query, keys)) {
      unsupported_on_gpu("GROUP BY string keys whose domains together pass 2^62");
    }
    return hash_key_layout(query, keys, words);
  }
  // hi = digits x 2 (the NULL flag) must stay below 2^63, under EMPTY's hi.
  if (raw.size() == 1 && !exprs[raw[0]]->type.is_wide() && bounded_product(keys) != 0) {
    return HashKeyLayout::RawAndDigits128;
  }
  return key_words_layout(query, keys, words);
}

}  // namespace tally
