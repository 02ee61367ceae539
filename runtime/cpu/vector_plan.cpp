#include "runtime/cpu/vector_plan.h"

#include <cmath>

#include "compiler/plan/value_bounds.h"

namespace tally {

namespace {

// A direct table per worker holds every key combination's states: it must stay small
// beside the data (and in cache where it can).
constexpr long double kDirectBytes = 16 << 20;

// The domain of one key, when it is small and known.
std::optional<KeyDomain> key_domain(const Expr& key, int codes, const Table& table,
                                    const BoundSelect& query, const VecEnv& env) {
  if (codes >= 0) {
    const auto column = static_cast<size_t>(query.scan[static_cast<size_t>(codes)].table_column);
    return KeyDomain{0, table.columns[column]->dictionary().size()};
  }
  if (vector_phys(key, env) != Phys::I64 || key.type.is_string()) return std::nullopt;
  const ValueBounds b = value_bounds(key, *env.stats, env.parameters);
  if (!b.known || b.hi - b.lo > 1e9L || b.lo < -4e18L || b.hi > 4e18L) return std::nullopt;
  const auto lo = static_cast<int64_t>(std::floor(b.lo));
  const auto hi = static_cast<int64_t>(std::ceil(b.hi));
  return KeyDomain{lo, static_cast<uint64_t>(hi - lo) + 1};
}

std::optional<std::vector<KeyDomain>> direct_domains(const BoundSelect& query, const Table& table,
                                                     const VecEnv& env, const VectorPlan& plan,
                                                     size_t state_bytes) {
  std::vector<KeyDomain> domains;
  long double slots = 1;
  for (size_t k = 0; k < query.group_keys.size(); ++k) {
    auto d = key_domain(*query.group_keys[k], plan.key_codes[k], table, query, env);
    if (!d) return std::nullopt;
    slots *= static_cast<long double>(d->size) + 1;
    domains.push_back(*d);
  }
  const long double rows = static_cast<long double>(table.rows());
  if (slots * static_cast<long double>(state_bytes + 1) > kDirectBytes) return std::nullopt;
  if (slots > 4 * rows + 1024) return std::nullopt;  // mostly empty: hashing reads less
  return domains;
}

}  // namespace

VectorPlan plan_vector(const BoundSelect& query, const Table& table, const VecEnv& env,
                       size_t state_bytes) {
  VectorPlan plan;
  const size_t width = query.scan.size();
  plan.filter_reads.assign(width, false);
  plan.others_read.assign(width, false);
  if (query.filter) mark_scan_columns(*query.filter, plan.filter_reads);
  for (const auto& a : query.aggregates) {
    if (a.arg) mark_scan_columns(*a.arg, plan.others_read);
    if (a.key) mark_scan_columns(*a.key, plan.others_read);
  }
  for (const auto& key : query.group_keys) {
    const bool codes = key->kind == ExprKind::ColumnRef && key->type.is_string();
    plan.key_codes.push_back(codes ? key->index : -1);
    plan.key_phys.push_back(vector_phys(*key, env));
    plan.keys_nullable |= may_be_null(*key, *env.stats, *env.parameters);
    mark_scan_columns(*key, plan.others_read);
  }
  plan.direct = direct_domains(query, table, env, plan, state_bytes);
  return plan;
}

}  // namespace tally
