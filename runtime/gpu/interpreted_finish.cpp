#include "runtime/gpu/interpreted_finish.h"

#include <unordered_map>

#include "runtime/cpu/partial_groups.h"
#include "runtime/gpu/gpu_engine_impl.h"
#include "runtime/gpu/state_cells.h"
#include "runtime/result/result_builder.h"

namespace tally {

namespace {

// Group numbers as key Values (dictionary codes and domain ids as ids of `strings`).
class KeyDecoder {
 public:
  KeyDecoder(const RowProgram& p, const BoundSelect& query, const Table& table, StringHeap& strings)
      : p_(p), query_(query), ids_(query.group_keys.size()) {
    for (size_t k = 0; k < query.group_keys.size(); ++k) {
      const Expr& key = *query.group_keys[k];
      if (const int d = p.key_domains.at(k); d >= 0) {
        ids_[k] = strings.intern_all(p.domains[d]);
      } else if (key.type.is_string()) {
        ids_[k] =
            strings.intern_all(table.columns[query.scan[key.index].table_column]->dictionary());
      }
    }
  }

  Value key(uint64_t group, size_t k) const {
    bool null = false;
    const int64_t v = row_program_key(p_, group, k, &null);
    const Type& type = query_.group_keys[k]->type;
    if (null) return Value();
    if (type.is_string()) return Value::from_int(ids_[k].at(static_cast<size_t>(v)));
    return from_cell(v, false, type);
  }

  std::vector<std::vector<Value>> all(const std::vector<uint64_t>& groups) const {
    std::vector<std::vector<Value>> values(groups.size());
    for (size_t g = 0; g < groups.size(); ++g) {
      for (size_t k = 0; k < query_.group_keys.size(); ++k) values[g].push_back(key(groups[g], k));
    }
    return values;
  }

 private:
  const RowProgram& p_;
  const BoundSelect& query_;
  std::vector<std::vector<int64_t>> ids_;
};

// Replaces each DISTINCT aggregate's state (of `plain`, the query without DISTINCT) by the
// plain state of its values: the device's set holds each value once, so they fold as the CPU
// engine folds its set's at the end, without a set on the host (which took 50 ms to build
// for 200,000 values on the 2-core machine).
template <class DomainIds>
void add_distinct_values(const RowProgram& p, const BoundSelect& plain,
                         const std::vector<uint64_t>& groups,
                         const std::vector<DistinctValue>& distinct, const DomainIds& domain_ids,
                         StringHeap& strings, PartialGroups& partial) {
  const std::vector<AggSpec> specs = make_agg_specs(plain, &strings);
  for (size_t f = 0; f < p.fields.size(); ++f) {
    if (p.fields[f].op != tally_interp::kFieldDistinct) continue;
    const auto a = static_cast<size_t>(p.layout.fields.at(f).aggregate);
    for (std::vector<AggState>& states : partial.states) states[a] = AggState{};
  }
  std::unordered_map<uint64_t, size_t> index;
  for (size_t g = 0; g < groups.size(); ++g) index.emplace(groups[g], g);
  for (const DistinctValue& d : distinct) {
    const auto a = static_cast<size_t>(p.layout.fields.at(d.field).aggregate);
    const Type& type = plain.aggregates.at(a).arg->type;
    const Value v = type.is_string() ? Value::from_int(domain_ids(a, d.value))
                                     : from_cell(d.value, false, type);
    agg_merge(partial.states[index.at(d.group)][a], specs[a], v);
  }
}

// Each group's finals straight from its cells into the outputs, columnar, as the generated
// kernels' cells finish (evaluate_group_outputs), without the CPU engine's per-group state
// vectors: 24,484 groups took 18.8 ms of host finish on an H200's host the other way.
Result finish_columnar(const RowProgram& p, const BoundSelect& query, const KeyDecoder& keys,
                       const std::vector<uint64_t>& groups, const std::vector<int128>& cells,
                       std::shared_ptr<StringHeap> strings, const std::vector<Value>& parameters,
                       const StateStringId& domain_ids) {
  const std::vector<AggSpec> specs = make_agg_specs(query, strings.get());
  const size_t fields = p.fields.size();
  auto read = [&](size_t g, Value* key_values, Value* aggregates) {
    for (size_t k = 0; k < query.group_keys.size(); ++k) key_values[k] = keys.key(groups[g], k);
    for (size_t a = 0; a < specs.size(); ++a) {
      AggState state;
      state.plain =
          group_state(p.layout, cells.data() + g * fields, query.aggregates[a], a, domain_ids);
      aggregates[a] = agg_final(state, specs[a]);
    }
  };
  ResultRows rows = evaluate_group_outputs(query, groups.size(), read, parameters, strings.get());
  Result result = finish_result(query, std::move(rows), parameters, strings);
  result.device = "cpu";
  return result;
}

}  // namespace

Result finish_interpreted(const RowProgram& p, const BoundSelect& query, const Table& table,
                          const std::vector<uint64_t>& groups, std::vector<int128> cells,
                          const std::vector<DistinctValue>& distinct,
                          std::shared_ptr<StringHeap> strings,
                          const std::vector<Value>& parameters) {
  // A MIN or MAX keeps a 64-bit value in its cell's low word; the host's states read 128 bits.
  for (size_t at = 0; at < cells.size(); ++at) {
    const int op = p.fields[at % p.fields.size()].op;
    if (op == tally_interp::kFieldMin || op == tally_interp::kFieldMax)
      cells[at] = static_cast<int64_t>(static_cast<uint64_t>(cells[at]));
  }
  const KeyDecoder keys(p, query, table, *strings);
  // A string MIN or MAX keeps an id of its argument's domain.
  std::vector<std::vector<int64_t>> extremes(query.aggregates.size());
  for (size_t a = 0; a < extremes.size(); ++a) {
    if (const int d = p.aggregate_domains.at(a); d >= 0)
      extremes[a] = strings->intern_all(p.domains[d]);
  }
  auto domain_ids = [&](size_t a, int64_t id) {
    return extremes.at(a).at(static_cast<size_t>(id));
  };
  const bool has_distinct = std::any_of(query.aggregates.begin(), query.aggregates.end(),
                                        [](const AggregateCall& c) { return c.distinct; });
  // An ungrouped statement over no rows still has its one row, which the partial path makes.
  if (!has_distinct && !(query.group_keys.empty() && groups.empty())) {
    return finish_columnar(p, query, keys, groups, cells, strings, parameters, domain_ids);
  }
  GpuPlan plan;
  plan.layout = p.layout;
  // A DISTINCT aggregate's cells hold nothing: the groups decode and finish as the query's
  // without DISTINCT, each DISTINCT aggregate's state folded from the set's values.
  BoundSelect without_distinct = query;
  for (AggregateCall& call : without_distinct.aggregates) call.distinct = false;
  PartialGroups partial = partial_groups_from_cells(without_distinct, plan, keys.all(groups),
                                                    cells.data(), strings, domain_ids);
  add_distinct_values(p, without_distinct, groups, distinct, domain_ids, *strings, partial);
  return finish_partial_groups(without_distinct, std::move(partial), parameters);
}

}  // namespace tally
