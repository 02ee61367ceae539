#include "runtime/cpu/partial_groups.h"

#include <cstring>

#include "compiler/common/value_ops.h"
#include "runtime/result/group_table.h"
#include "runtime/result/result_builder.h"

namespace tally {

void encode_group_key(const std::vector<Value>& keys, const BoundSelect& query, uint8_t* out) {
  for (size_t k = 0; k < keys.size(); ++k) {
    const Value v = hash_payload(keys[k], query.group_keys[k]->type);
    out[k * kGroupKeySlotBytes] = v.null;
    std::memcpy(out + k * kGroupKeySlotBytes + 1, &v.d, 16);
  }
}

namespace {

// The string ORDER BY values an ordered aggregate keeps beside its values.
template <typename Map>
void map_sort_keys(const AggregateCall& call, PartialGroups& groups, size_t a, Map& map_value) {
  const size_t width = call.order.size();
  for (size_t k = 0; k < width; ++k) {
    if (!call.order[k].expr->type.is_string()) continue;
    for (auto& states : groups.states) {
      std::vector<Value>& keys = states[a].plain.sort_keys;
      for (size_t i = k; i < keys.size(); i += width) map_value(keys[i]);
    }
  }
}

}  // namespace

void map_string_ids(const BoundSelect& query, PartialGroups& groups,
                    const std::function<int64_t(int64_t)>& visit) {
  auto map_value = [&](Value& v) {
    if (!v.null) v.i = visit(v.i);
  };
  for (auto& keys : groups.keys) {
    for (size_t k = 0; k < keys.size(); ++k) {
      if (query.group_keys[k]->type.is_string()) map_value(keys[k]);
    }
  }
  for (size_t a = 0; a < query.aggregates.size(); ++a) {
    const auto& call = query.aggregates[a];
    if (call.key && call.key->type.is_string()) {  // ARG_MIN/ARG_MAX's key
      for (auto& states : groups.states) map_value(states[a].plain.key);
    }
    map_sort_keys(call, groups, a, map_value);
    if (!call.arg || !call.arg->type.is_string()) continue;
    for (auto& states : groups.states) {
      AggState& state = states[a];
      map_value(state.plain.extreme);
      for (Value& v : state.plain.values) map_value(v);
      if (!state.distinct) continue;
      auto mapped = std::make_unique<std::unordered_set<int128, Int128Hash>>();
      for (int128 id : *state.distinct) mapped->insert(visit(static_cast<int64_t>(id)));
      state.distinct = std::move(mapped);
    }
  }
}

void combine_partial_groups(const BoundSelect& query, PartialGroups& into,
                            std::span<PartialGroups> parts) {
  std::vector<AggSpec> specs = make_agg_specs(query, into.strings.get());
  size_t width = query.group_keys.size() * kGroupKeySlotBytes;
  GroupTable table(width);
  std::vector<uint8_t> key(width);
  for (const auto& keys : into.keys) {
    encode_group_key(keys, query, key.data());
    table.find_or_insert(key.data());
  }
  for (PartialGroups& from : parts) {
    if (from.strings != into.strings) {
      map_string_ids(query, from,
                     [&](int64_t id) { return into.strings->intern(from.strings->get(id)); });
    }
    for (size_t g = 0; g < from.keys.size(); ++g) {
      encode_group_key(from.keys[g], query, key.data());
      uint32_t m = table.find_or_insert(key.data());
      if (m == into.states.size()) {
        into.keys.push_back(std::move(from.keys[g]));
        into.states.push_back(std::move(from.states[g]));
        continue;
      }
      for (size_t a = 0; a < specs.size(); ++a) {
        agg_combine(into.states[m][a], from.states[g][a], specs[a]);
      }
    }
    from.keys.clear();
    from.states.clear();
  }
}

Result finish_partial_groups(const BoundSelect& query, PartialGroups groups,
                             const std::vector<Value>& parameters) {
  std::vector<AggSpec> specs = make_agg_specs(query, groups.strings.get());
  // Aggregates without GROUP BY give one row even over no input.
  if (query.group_keys.empty() && groups.states.empty()) {
    groups.keys.emplace_back();
    groups.states.emplace_back(specs.size());
  }
  GroupRows rows;
  rows.keys = std::move(groups.keys);
  for (const auto& states : groups.states) {
    std::vector<Value> finals;
    for (size_t a = 0; a < specs.size(); ++a) finals.push_back(agg_final(states[a], specs[a]));
    rows.aggregates.push_back(std::move(finals));
  }
  Result result =
      finish_result(query, evaluate_group_outputs(query, rows, parameters, groups.strings.get()),
                    parameters, groups.strings);
  result.device = "cpu";
  return result;
}

}  // namespace tally
