#include "runtime/compile/group_estimate.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <string>
#include <unordered_map>

#include "compiler/common/error.h"
#include "compiler/eval/evaluator.h"
#include "compiler/ir/grouping_sets.h"

namespace tally {

namespace {

uint64_t splitmix64(uint64_t x) {
  x += 0x9E3779B97F4A7C15ull;
  x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
  x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
  return x ^ (x >> 31);
}

// The keys as bytes: a NULL flag and the value's 16 payload bytes each.
std::string key_bytes(const std::vector<Value>& keys) {
  std::string bytes(keys.size() * 17, '\0');
  for (size_t k = 0; k < keys.size(); ++k) {
    bytes[k * 17] = keys[k].null ? 1 : 0;
    if (!keys[k].null) std::memcpy(bytes.data() + k * 17 + 1, &keys[k].d, 16);
  }
  return bytes;
}

// The estimates from the sampled keys' counts (`passed` rows of the table's `rows`, drawn
// `sampled`).
GroupCounts estimate_from_counts(const std::unordered_map<std::string, uint32_t>& seen,
                                 uint64_t passed, uint64_t sampled, uint64_t rows) {
  KeyFrequencies keys;
  keys.distinct = seen.size();
  for (const auto& [key, count] : seen) {
    keys.once += count == 1;
    keys.twice += count == 2;
    ++keys.profile[count];
  }
  const double passing =
      static_cast<double>(rows) * static_cast<double>(passed) / static_cast<double>(sampled);
  return estimate_from_frequencies(keys, passed, passing);
}

// Whether the sampled keys' counts fail a chi-square test of equal frequencies at 2.5%: the
// statistic against the normal approximation of chi-square(d - 1)'s upper point.
bool skewed(const KeyFrequencies& keys, uint64_t passed) {
  if (keys.profile.empty() || keys.distinct < 2) return false;
  const double mean = static_cast<double>(passed) / static_cast<double>(keys.distinct);
  double statistic = 0;
  for (const auto& [count, classes] : keys.profile) {
    const double deviation = static_cast<double>(count) - mean;
    statistic += static_cast<double>(classes) * deviation * deviation / mean;
  }
  const double df = static_cast<double>(keys.distinct - 1);
  return statistic > df + 1.96 * std::sqrt(2 * df);
}

// Shlosser's estimate: the keys seen once stand for the unseen in the proportion the sample's
// frequencies give at sampling fraction q.
double shlosser(const KeyFrequencies& keys, uint64_t passed, double passing) {
  const double q = std::min(1.0, static_cast<double>(passed) / passing);
  double unseen = 0, seen = 0;
  for (const auto& [count, classes] : keys.profile) {
    const auto i = static_cast<double>(count), f = static_cast<double>(classes);
    unseen += std::pow(1 - q, i) * f;
    seen += i * q * std::pow(1 - q, i - 1) * f;
  }
  if (seen <= 0) return static_cast<double>(keys.distinct);
  return static_cast<double>(keys.distinct) + static_cast<double>(keys.once) * unseen / seen;
}

}  // namespace

GroupCounts estimate_from_frequencies(const KeyFrequencies& keys, uint64_t passed, double passing) {
  const auto d = static_cast<double>(keys.distinct), f1 = static_cast<double>(keys.once),
             f2 = static_cast<double>(keys.twice);
  const double gee = std::sqrt(passing / static_cast<double>(passed)) * f1 + (d - f1);
  auto chao1 = [&](double pairs) { return d + f1 * (f1 - 1) / (2 * (pairs + 1)); };
  auto in_range = [&](double estimate) {
    return static_cast<uint64_t>(std::clamp(std::max(gee, estimate), d, std::max(d, passing)));
  };
  const GroupCounts counts{in_range(chao1(f2)), in_range(chao1(std::max(0.0, f2 - std::sqrt(f2))))};
  // A few passing rows whose keys (nearly) never repeat bound the groups from below only: 305
  // of 8,192 sampled rows, all distinct, gave Chao's 46,665 for about 2.2 M groups, and the
  // table of 131,072 slots grew and ran again (H200, SF 10: 8.7 ms of kernels, 1.0 after). Such
  // a table is sized for every passing row, which is at most kFewPassed / 8,192 of the table.
  constexpr uint64_t kFewPassed = 1024;
  if (passed < kFewPassed && keys.distinct - keys.once <= 1) {
    return {counts.groups, in_range(passing)};
  }
  // Skewed keys: Shlosser's estimate, at most 8 times Chao's. A sample of Zipf 1.0 keys looks
  // alike over 2^16 and 2^24 keys (about 5,000 distinct of 8,192), where the groups differ 167
  // times: Chao's 0.60 M falls short of 4.2 M at 2^22, Shlosser's 48 M overshoots 65,536 at 2^16.
  constexpr uint64_t kSkewMultiple = 8;
  if (skewed(keys, passed)) {
    const double cap = static_cast<double>(counts.groups_high * kSkewMultiple);
    return {counts.groups,
            std::max(counts.groups_high, in_range(std::min(cap, shlosser(keys, passed, passing))))};
  }
  return counts;
}

void read_scan_row(const BoundSelect& query, const Table& table, size_t row, StringHeap& strings,
                   std::vector<Value>& values, const std::vector<bool>* only) {
  values.resize(query.scan.size());
  for (size_t c = 0; c < query.scan.size(); ++c) {
    if (only && !(*only)[c]) continue;
    const Column& column = *table.columns[query.scan[c].table_column];
    Value v = column.is_valid(row) ? column.get_value(row) : Value();
    if (!v.null && query.scan[c].type.is_string()) {
      v.i = strings.intern(column.dictionary()[static_cast<size_t>(v.i)]);
    }
    values[c] = v;
  }
}

std::vector<bool> key_and_filter_columns(const BoundSelect& query) {
  std::vector<bool> used(query.scan.size(), false);
  if (query.filter) mark_scan_columns(*query.filter, used);
  for (const ExprPtr& key : query.group_keys) mark_scan_columns(*key, used);
  return used;
}

GroupEstimate estimate_groups(const BoundSelect& query, const Table& table,
                              const std::vector<Value>& parameters, uint64_t sample_rows) {
  GroupEstimate e;
  const uint64_t rows = table.rows();
  if (rows == 0 || sample_rows == 0) return e;
  StringHeap strings;
  EvalContext ctx;
  ctx.parameters = parameters.data();
  ctx.parameter_count = parameters.size();
  ctx.strings = &strings;
  // One-pass grouping sets (compiler/ir/grouping_sets.h): the last key is the set id, and
  // a row makes one group per set, so each set's groups are estimated apart and summed.
  const bool one_pass = is_one_pass_grouping_query(query);
  const size_t real_keys = query.group_keys.size() - (one_pass ? 1 : 0);
  const std::vector<uint64_t> sets = one_pass ? query.grouping_sets : std::vector<uint64_t>{~0ull};
  std::vector<Value> values, keys(real_keys), set_keys;
  std::vector<std::unordered_map<std::string, uint32_t>> seen(sets.size());
  e.sampled = std::min(rows, sample_rows);
  // In row order, and only the columns the keys and filter read: fewer cache misses over a
  // large table (a sample of SF 10's lineitem took 6 ms of planning on an H200's host).
  std::vector<uint64_t> sample(e.sampled);
  for (uint64_t i = 0; i < e.sampled; ++i) sample[i] = splitmix64(i) % rows;
  std::sort(sample.begin(), sample.end());
  const std::vector<bool> used = key_and_filter_columns(query);
  for (const uint64_t row : sample) {
    read_scan_row(query, table, row, strings, values, &used);
    ctx.columns = values.data();
    try {
      if (query.filter && !is_true(evaluate(*query.filter, ctx))) continue;
      for (size_t k = 0; k < keys.size(); ++k) keys[k] = evaluate(*query.group_keys[k], ctx);
    } catch (const Error&) {
      continue;
    }
    ++e.passed;
    for (size_t s = 0; s < sets.size(); ++s) {
      set_keys = keys;
      for (size_t k = 0; k < real_keys; ++k) {
        if (!((sets[s] >> k) & 1)) set_keys[k] = Value();
      }
      e.hottest = std::max<uint64_t>(e.hottest, ++seen[s][key_bytes(set_keys)]);
    }
  }
  if (e.passed == 0) return e;
  for (const auto& set_seen : seen) {
    e.distinct += set_seen.size();
    const GroupCounts counts = estimate_from_counts(set_seen, e.passed, e.sampled, rows);
    e.groups += counts.groups;
    e.groups_high += counts.groups_high;
  }
  return e;
}

}  // namespace tally
