#include "runtime/result/result_builder.h"

#include <fmt/format.h>

#include <algorithm>
#include <cstring>
#include <iterator>
#include <tuple>
#include <utility>

#include "compiler/common/error.h"
#include "compiler/common/run_parallel.h"
#include "compiler/common/value_ops.h"
#include "compiler/eval/evaluator.h"
#include "runtime/result/group_table.h"
#include "runtime/result/row_sort.h"

namespace tally {

namespace {

constexpr size_t kGroupsPerTask = 1 << 14;  // below this, one thread evaluates

// HAVING and the outputs of groups [0, groups), `at(g, key_scratch, aggregate_scratch)`
// giving group g's keys and aggregate finals (its own or written into the scratch), in
// group order; chunks of groups run on all cores.
template <class GroupAt>
std::vector<std::vector<Value>> evaluate_groups(const BoundSelect& query, size_t groups,
                                                const GroupAt& at,
                                                const std::vector<Value>& parameters,
                                                StringHeap* strings) {
  const size_t tasks = std::max<size_t>(1, (groups + kGroupsPerTask - 1) / kGroupsPerTask);
  std::vector<std::vector<std::vector<Value>>> parts(tasks);
  run_parallel(tasks, [&](size_t t) {
    EvalContext ctx;
    ctx.parameters = parameters.data();
    ctx.parameter_count = parameters.size();
    ctx.strings = strings;
    std::vector<Value> key_scratch(query.group_keys.size());
    std::vector<Value> aggregate_scratch(query.aggregates.size());
    const size_t end = std::min(groups, (t + 1) * kGroupsPerTask);
    for (size_t g = t * kGroupsPerTask; g < end; ++g) {
      std::tie(ctx.keys, ctx.aggregates) = at(g, key_scratch.data(), aggregate_scratch.data());
      if (query.having && !is_true(evaluate(*query.having, ctx))) continue;
      std::vector<Value> row;
      row.reserve(query.outputs.size());
      for (const auto& out : query.outputs) row.push_back(evaluate(*out.expr, ctx));
      parts[t].push_back(std::move(row));
    }
  });
  if (tasks == 1) return std::move(parts[0]);
  size_t total = 0;
  for (const auto& part : parts) total += part.size();
  std::vector<std::vector<Value>> rows;
  rows.reserve(total);
  for (auto& part : parts) std::move(part.begin(), part.end(), std::back_inserter(rows));
  return rows;
}

}  // namespace

std::vector<std::vector<Value>> evaluate_group_outputs(const BoundSelect& query,
                                                       const GroupRows& groups,
                                                       const std::vector<Value>& parameters,
                                                       StringHeap* strings) {
  auto at = [&](size_t g, Value*, Value*) {
    return std::pair<const Value*, const Value*>(groups.keys[g].data(),
                                                 groups.aggregates[g].data());
  };
  return evaluate_groups(query, groups.aggregates.size(), at, parameters, strings);
}

std::vector<std::vector<Value>> evaluate_group_outputs(const BoundSelect& query, size_t groups,
                                                       const GroupReader& read,
                                                       const std::vector<Value>& parameters,
                                                       StringHeap* strings) {
  auto at = [&](size_t g, Value* keys, Value* aggregates) {
    read(g, keys, aggregates);
    return std::pair<const Value*, const Value*>(keys, aggregates);
  };
  return evaluate_groups(query, groups, at, parameters, strings);
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

// Keeps the first row of each run of rows equal on `columns` (SELECT DISTINCT: the visible
// outputs; DISTINCT ON: its expressions, after the sort).
void remove_duplicate_rows(const BoundSelect& query, const std::vector<size_t>& columns,
                           std::vector<std::vector<Value>>& rows) {
  // Key bytes of the columns, as the group table hashes them.
  const size_t n = columns.size();
  GroupTable seen(n * 17);
  std::vector<uint8_t> key(n * 17);
  std::vector<std::vector<Value>> kept;
  for (auto& row : rows) {
    for (size_t c = 0; c < n; ++c) {
      const Value& cell = row[columns[c]];
      key[c * 17] = cell.null;
      const Value v = hash_payload(cell, query.outputs[columns[c]].expr->type);
      std::memcpy(&key[c * 17 + 1], &v.d, 16);
    }
    size_t before = seen.size();
    seen.find_or_insert(key.data());
    if (seen.size() > before) kept.push_back(std::move(row));
  }
  rows.swap(kept);
}

std::vector<size_t> first_columns(size_t n) {
  std::vector<size_t> columns(n);
  for (size_t c = 0; c < n; ++c) columns[c] = c;
  return columns;
}

}  // namespace

size_t rows_needed(const BoundSelect& query, const std::vector<Value>& parameters) {
  if (!query.distinct_on.empty()) return SIZE_MAX;  // the LIMIT counts rows after DISTINCT ON
  const int64_t offset =
      resolve_count(query.offset, query.offset_parameter, parameters, 0, "OFFSET");
  const int64_t limit =
      resolve_count(query.limit, query.limit_parameter, parameters, INT64_MAX, "LIMIT");
  return limit > INT64_MAX - offset ? SIZE_MAX : static_cast<size_t>(offset + limit);
}

std::optional<size_t> rows_needed_in_order(const BoundSelect& query,
                                           const std::vector<Value>& parameters) {
  if (query.aggregated || !query.order_by.empty() || query.distinct_outputs ||
      !query.distinct_on.empty()) {
    return std::nullopt;
  }
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
  if (query.distinct_outputs)
    remove_duplicate_rows(query, first_columns(query.visible_outputs), rows);
  int64_t offset = resolve_count(query.offset, query.offset_parameter, parameters, 0, "OFFSET");
  int64_t limit = resolve_count(query.limit, query.limit_parameter, parameters, INT64_MAX, "LIMIT");
  sort_rows(query, rows, strings.get(), rows_needed(query, parameters));
  if (!query.distinct_on.empty()) {
    remove_duplicate_rows(query, {query.distinct_on.begin(), query.distinct_on.end()}, rows);
  }
  size_t begin = std::min(rows.size(), static_cast<size_t>(offset));
  size_t end = std::min(rows.size(), begin + static_cast<size_t>(std::min<int64_t>(
                                                 limit, static_cast<int64_t>(rows.size()))));
  Result result;
  result.strings = std::move(strings);
  for (size_t c = 0; c < query.visible_outputs; ++c) {
    result.names.push_back(query.outputs[c].name);
    result.types.push_back(query.outputs[c].expr->type);
  }
  // Hidden outputs (ORDER BY expressions not selected) are dropped; the rows move whole.
  if (query.visible_outputs < query.outputs.size()) {
    for (size_t r = begin; r < end; ++r) rows[r].resize(query.visible_outputs);
  }
  if (begin == 0 && end == rows.size()) {
    result.rows = std::move(rows);
    return result;
  }
  result.rows.reserve(end - begin);
  for (size_t r = begin; r < end; ++r) result.rows.push_back(std::move(rows[r]));
  return result;
}

}  // namespace tally
