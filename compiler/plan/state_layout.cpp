#include "compiler/plan/state_layout.h"

#include <algorithm>
#include <cmath>
#include <utility>

#include "compiler/plan/expr_facts.h"
#include "compiler/plan/thread_cell_packing.h"
#include "compiler/plan/value_bounds.h"

namespace tally {

namespace {

// Whether two aggregates' fields see the same rows and values: the same argument, and the
// same second argument or none (COVAR_POP(y, x) skips the rows where x is NULL, VAR_SAMP(y)
// does not).
bool same_inputs(const AggregateCall& a, const AggregateCall& b) {
  auto same = [](const ExprPtr& x, const ExprPtr& y) {
    return (!x && !y) || (x && y && expr_equal(*x, *y));
  };
  return a.arg && b.arg && same(a.arg, b.arg) && same(a.key, b.key);
}

// The field of `kind` that aggregate a merges into: an equal one already there, or a new one.
int field_for(StateLayout& layout, FieldKind kind, int a, const BoundSelect& query,
              const std::vector<ColumnStats>& stats) {
  const AggregateCall& call = query.aggregates[a];
  auto add = [&] {
    layout.fields.push_back({kind, a});
    return static_cast<int>(layout.fields.size() - 1);
  };
  if (call.distinct) return add();  // fed by other rows than any plain aggregate
  auto never_null = [&](const ExprPtr& e) { return !e || !may_be_null(*e, query, stats); };
  if (kind == FieldKind::Count && never_null(call.arg) && never_null(call.key)) return 0;
  for (size_t f = 1; f < layout.fields.size(); ++f) {
    const AggregateCall& other = query.aggregates[layout.fields[f].aggregate];
    if (layout.fields[f].kind == kind && !other.distinct && same_inputs(other, call)) {
      return static_cast<int>(f);
    }
  }
  return add();
}

// The GPU's state of `call` and the bits it splits its values at: an exact variance whose
// squares pass 128 bits splits them; ARG_MIN/ARG_MAX of a DECIMAL wider than 18 digits keeps
// its key and value apart, in two passes.
std::pair<const StateInfo*, int> device_state(const AggregateCall& call,
                                              const std::vector<ColumnStats>& stats,
                                              uint64_t rows) {
  const StateInfo& state = aggregate_state(call.kind, call.arg ? call.arg->type : Type::bigint());
  const bool arg_pair = state.kind == StateKind::ArgMin || state.kind == StateKind::ArgMax;
  if (arg_pair && (call.arg->type.is_wide_decimal() || call.key->type.is_wide_decimal())) {
    const bool greatest = state.kind == StateKind::ArgMax;
    return {&state_info(greatest ? StateKind::ArgMaxWide : StateKind::ArgMinWide), 0};
  }
  const bool root = state.kind == StateKind::StddevWide;
  if (!root && state.kind != StateKind::VarianceWide) return {&state, 0};
  const int split = square_split_bits(*call.arg, stats, rows);
  if (split <= 0) return {&state, 0};
  return {&state_info(root ? StateKind::StddevSplit : StateKind::VarianceSplit), split};
}

}  // namespace

bool keeps_seen_values(const BoundSelect& query, const StateLayout& layout, size_t a) {
  return query.aggregates[a].distinct && layout.aggregate_states[a] != StateKind::CountDistinctBits;
}

std::optional<DistinctDomain> distinct_domain(const AggregateCall& call,
                                              const std::vector<ColumnStats>& stats) {
  if (!call.distinct || !call.arg || call.key) return std::nullopt;
  const Expr& arg = *call.arg;
  const Type& t = arg.type;
  if (t.is_string()) {
    if (arg.kind != ExprKind::ColumnRef) return std::nullopt;
    const uint64_t codes = stats[arg.index].dictionary_size;
    return codes >= 1 ? std::optional<DistinctDomain>({0, codes}) : std::nullopt;
  }
  if (t.is_float() || t.is_wide() || t.is_interval()) return std::nullopt;
  const ValueBounds b = value_bounds(arg, stats);
  if (!b.known || b.lo < -0x1p62L || b.hi > 0x1p62L) return std::nullopt;
  return DistinctDomain{static_cast<int64_t>(b.lo), static_cast<uint64_t>(b.hi - b.lo) + 1};
}

std::optional<int64_t> distinct_bit_base(const AggregateCall& call,
                                         const std::vector<ColumnStats>& stats) {
  if (call.kind != AggKind::Count) return std::nullopt;
  const std::optional<DistinctDomain> domain = distinct_domain(call, stats);
  if (!domain || domain->values > 64) return std::nullopt;
  return domain->base;
}

int square_split_bits(const Expr& arg, const std::vector<ColumnStats>& stats, uint64_t rows) {
  const long double m = magnitude_log2(arg, stats);
  const long double rows_log2 = std::log2(std::max<long double>(2, rows));
  if (2 * m + rows_log2 < 126) return 0;
  // |x| <= 2^top splits at ceil(top / 2): high^2 <= 2^top, |high*low| < 2^top and low^2 <
  // 2^(top+1), so each sum stays below 2^(top+1+rows_log2), like a SUM's with a bit to spare.
  const int top = static_cast<int>(std::ceil(m));
  if (top + 1 + rows_log2 >= 126) return -1;
  return (top + 1) / 2;
}

bool StateLayout::second_pass() const {
  return std::any_of(fields.begin(), fields.end(),
                     [](const StateField& f) { return field_info(f.kind).second_pass; });
}

bool StateLayout::sketches() const {
  return std::any_of(fields.begin(), fields.end(),
                     [](const StateField& f) { return f.kind == FieldKind::HllSketch; });
}

StateLayout layout_states(const BoundSelect& query, const std::vector<ColumnStats>& stats,
                          uint64_t rows, bool distinct_bits) {
  StateLayout layout;
  layout.fields.push_back({FieldKind::Count, -1});
  for (size_t a = 0; a < query.aggregates.size(); ++a) {
    const AggregateCall& call = query.aggregates[a];
    const std::optional<int64_t> bit_base =
        distinct_bits ? distinct_bit_base(call, stats) : std::nullopt;
    const auto [state_ptr, split] = bit_base
                                        ? std::pair{&state_info(StateKind::CountDistinctBits), 0}
                                        : device_state(call, stats, rows);
    const StateInfo& state = *state_ptr;
    layout.square_split.push_back(split);
    layout.distinct_base.push_back(bit_base.value_or(0));
    std::vector<int> ids;
    for (FieldKind k : state.fields) {
      ids.push_back(field_for(layout, k, static_cast<int>(a), query, stats));
    }
    layout.aggregate_fields.push_back(ids);
    layout.aggregate_states.push_back(state.kind);
    const bool string_column =
        call.arg && call.arg->type.is_string() && call.arg->kind == ExprKind::ColumnRef;
    layout.aggregate_dictionary.push_back(state.returns_argument && string_column ? call.arg->index
                                                                                  : -1);
  }
  for (size_t f = 0; f < layout.fields.size(); ++f) {
    const long double top = nonnegative_top(layout, f, query, stats);
    layout.fields[f].low_word_sum =
        top >= 0 && lane_sum_bits(top, std::max<uint64_t>(rows, 1)) != 0;
  }
  return layout;
}

long double nonnegative_top(const StateLayout& layout, size_t f, const BoundSelect& query,
                            const std::vector<ColumnStats>& stats) {
  const StateField& field = layout.fields[f];
  if (field.kind != FieldKind::SumI128) return -1;
  const ValueBounds v = value_bounds(*query.aggregates[field.aggregate].arg, stats);
  return v.known && v.lo >= 0 ? v.hi : -1;
}

}  // namespace tally
