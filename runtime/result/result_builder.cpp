#include "runtime/result/result_builder.h"

#include <fmt/format.h>

#include <algorithm>
#include <cstring>

#include "compiler/common/error.h"
#include "compiler/eval/evaluator.h"
#include "runtime/result/group_table.h"

namespace tally {

std::vector<std::vector<Value>> evaluate_group_outputs(const BoundSelect& query,
                                                       const GroupRows& groups,
                                                       const std::vector<Value>& parameters,
                                                       StringHeap* strings) {
  std::vector<std::vector<Value>> rows;
  EvalContext ctx;
  ctx.parameters = parameters.data();
  ctx.parameter_count = parameters.size();
  ctx.strings = strings;
  for (size_t g = 0; g < groups.aggregates.size(); ++g) {
    ctx.keys = groups.keys[g].data();
    ctx.aggregates = groups.aggregates[g].data();
    if (query.having && !is_true(evaluate(*query.having, ctx))) continue;
    std::vector<Value> row;
    row.reserve(query.outputs.size());
    for (const auto& out : query.outputs) row.push_back(evaluate(*out.expr, ctx));
    rows.push_back(std::move(row));
  }
  return rows;
}

namespace {

int64_t resolve_count(std::optional<int64_t> constant, int parameter,
                      const std::vector<Value>& parameters, int64_t fallback, const char* what) {
  if (parameter >= 0) {
    const Value& v = parameters.at(static_cast<size_t>(parameter));
    if (v.null) return fallback;
    if (v.i < 0) throw Error(ErrorKind::Execution, fmt::format("{} must not be negative", what));
    return v.i;
  }
  return constant.value_or(fallback);
}

void remove_duplicate_rows(const BoundSelect& query, std::vector<std::vector<Value>>& rows) {
  // Key bytes of the visible outputs, as the group table hashes them.
  size_t n = query.visible_outputs;
  GroupTable seen(n * 17);
  std::vector<uint8_t> key(n * 17);
  std::vector<std::vector<Value>> kept;
  for (auto& row : rows) {
    for (size_t c = 0; c < n; ++c) {
      key[c * 17] = row[c].null;
      Value v = row[c].null ? Value() : row[c];
      std::memcpy(&key[c * 17 + 1], &v.d, 16);
    }
    size_t before = seen.size();
    seen.find_or_insert(key.data());
    if (seen.size() > before) kept.push_back(std::move(row));
  }
  rows.swap(kept);
}

void sort_rows(const BoundSelect& query, std::vector<std::vector<Value>>& rows,
               const StringHeap* strings) {
  auto less = [&](const std::vector<Value>& a, const std::vector<Value>& b) {
    for (const auto& key : query.order_by) {
      const Value& x = a[key.output];
      const Value& y = b[key.output];
      if (x.null || y.null) {
        if (x.null && y.null) continue;
        return x.null ? key.nulls_first : !key.nulls_first;
      }
      int c = compare_values(x, y, query.outputs[key.output].expr->type, strings);
      if (c != 0) return key.descending ? c > 0 : c < 0;
    }
    return false;
  };
  std::stable_sort(rows.begin(), rows.end(), less);
}

}  // namespace

std::optional<size_t> rows_needed_in_order(const BoundSelect& query,
                                           const std::vector<Value>& parameters) {
  if (query.aggregated || !query.order_by.empty() || query.distinct_outputs) return std::nullopt;
  if (!query.limit && query.limit_parameter < 0) return std::nullopt;
  const int64_t offset =
      resolve_count(query.offset, query.offset_parameter, parameters, 0, "OFFSET");
  const int64_t limit =
      resolve_count(query.limit, query.limit_parameter, parameters, INT64_MAX, "LIMIT");
  if (limit > INT64_MAX - offset) return std::nullopt;
  return static_cast<size_t>(offset + limit);
}

Result finish_result(const BoundSelect& query, std::vector<std::vector<Value>> rows,
                     const std::vector<Value>& parameters, std::shared_ptr<StringHeap> strings) {
  if (query.distinct_outputs) remove_duplicate_rows(query, rows);
  if (!query.order_by.empty()) sort_rows(query, rows, strings.get());
  int64_t offset = resolve_count(query.offset, query.offset_parameter, parameters, 0, "OFFSET");
  int64_t limit = resolve_count(query.limit, query.limit_parameter, parameters, INT64_MAX, "LIMIT");
  size_t begin = std::min(rows.size(), static_cast<size_t>(offset));
  size_t end = std::min(rows.size(), begin + static_cast<size_t>(std::min<int64_t>(
                                                 limit, static_cast<int64_t>(rows.size()))));
  Result result;
  result.strings = std::move(strings);
  for (size_t c = 0; c < query.visible_outputs; ++c) {
    result.names.push_back(query.outputs[c].name);
    result.types.push_back(query.outputs[c].expr->type);
  }
  result.rows.reserve(end - begin);
  for (size_t r = begin; r < end; ++r) {
    rows[r].resize(query.visible_outputs);
    result.rows.push_back(std::move(rows[r]));
  }
  return result;
}

}  // namespace tally
