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

EvalContext group_context(const std::vector<Value>& parameters, StringHeap* strings) {
  EvalContext ctx;
  ctx.parameters = parameters.data();
  ctx.parameter_count = parameters.size();
  ctx.strings = strings;
  return ctx;
}

// HAVING and the outputs of groups [0, groups), `at(g, key_scratch, aggregate_scratch)`
// giving group g's keys and aggregate finals (its own or written into the scratch), in
// group order; chunks of groups run on all cores. Without HAVING each group is a row, written
// in place; with it each chunk keeps its rows and the chunks are appended in order.
template <class GroupAt>
ResultRows evaluate_groups(const BoundSelect& query, size_t groups, const GroupAt& at,
                           const std::vector<Value>& parameters, StringHeap* strings,
                           bool having_applied = false) {
  const Expr* having = having_applied ? nullptr : query.having.get();
  const size_t tasks = std::max<size_t>(1, (groups + kGroupsPerTask - 1) / kGroupsPerTask);
  const size_t width = query.outputs.size();
  auto each_group = [&](size_t t, const auto& emit) {
    EvalContext ctx = group_context(parameters, strings);
    std::vector<Value> key_scratch(query.group_keys.size());
    std::vector<Value> aggregate_scratch(query.aggregates.size());
    const size_t end = std::min(groups, (t + 1) * kGroupsPerTask);
    for (size_t g = t * kGroupsPerTask; g < end; ++g) {
      std::tie(ctx.keys, ctx.aggregates) = at(g, key_scratch.data(), aggregate_scratch.data());
      if (having && !is_true(evaluate(*having, ctx))) continue;
      emit(g, ctx);
    }
  };
  if (!having) {
    ResultRows rows = output_rows(query);
    rows.allocate(groups);  // every cell is set below, by the task of its group
    run_parallel(tasks, [&](size_t t) {
      each_group(t, [&](size_t g, const EvalContext& ctx) {
        for (size_t c = 0; c < width; ++c) rows.set(g, c, evaluate(*query.outputs[c].expr, ctx));
      });
    });
    return rows;
  }
  std::vector<ResultRows> parts(tasks, output_rows(query));
  run_parallel(tasks, [&](size_t t) {
    std::vector<Value> row(width);
    each_group(t, [&](size_t, const EvalContext& ctx) {
      for (size_t c = 0; c < width; ++c) row[c] = evaluate(*query.outputs[c].expr, ctx);
      parts[t].push_back(row.data(), width);
    });
  });
  return ResultRows::concatenate(parts);
}

}  // namespace

ResultRows output_rows(const BoundSelect& query) {
  std::vector<Type> types;
  for (const auto& out : query.outputs) types.push_back(out.expr->type);
  return ResultRows(types);
}

ResultRows evaluate_group_outputs(const BoundSelect& query, const GroupRows& groups,
                                  const std::vector<Value>& parameters, StringHeap* strings) {
  auto at = [&](size_t g, Value*, Value*) {
    return std::pair<const Value*, const Value*>(groups.keys[g].data(),
                                                 groups.aggregates[g].data());
  };
  return evaluate_groups(query, groups.aggregates.size(), at, parameters, strings);
}

ResultRows evaluate_group_outputs(const BoundSelect& query, size_t groups, const GroupReader& read,
                                  const std::vector<Value>& parameters, StringHeap* strings,
                                  bool having_applied) {
  auto at = [&](size_t g, Value* keys, Value* aggregates) {
    read(g, keys, aggregates);
    return std::pair<const Value*, const Value*>(keys, aggregates);
  };
  return evaluate_groups(query, groups, at, parameters, strings, having_applied);
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

// The first row of each run of rows equal on `columns` (SELECT DISTINCT: the visible
// outputs; DISTINCT ON: its expressions, after the sort).
std::vector<size_t> distinct_rows(const BoundSelect& query, const std::vector<size_t>& columns,
                                  const ResultRows& rows) {
  // Key bytes of the columns, as the group table hashes them.
  const size_t n = columns.size();
  GroupTable seen(n * 17);
  std::vector<uint8_t> key(n * 17);
  std::vector<size_t> kept;
  for (size_t r = 0; r < rows.size(); ++r) {
    for (size_t c = 0; c < n; ++c) {
      const Value cell = rows.cell(r, columns[c]);
      key[c * 17] = cell.null;
      const Value v = hash_payload(cell, query.outputs[columns[c]].expr->type);
      std::memcpy(&key[c * 17 + 1], &v.d, 16);
    }
    size_t before = seen.size();
    seen.find_or_insert(key.data());
    if (seen.size() > before) kept.push_back(r);
  }
  return kept;
}

std::vector<size_t> row_range(size_t begin, size_t end) {
  std::vector<size_t> rows(end - begin);
  for (size_t r = begin; r < end; ++r) rows[r - begin] = r;
  return rows;
}

// An order that leaves the rows where they are (results often come back sorted already).
bool keeps_every_row_in_place(const std::vector<size_t>& order, size_t rows) {
  if (order.size() != rows) return false;
  for (size_t r = 0; r < rows; ++r) {
    if (order[r] != r) return false;
  }
  return true;
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

Result finish_result(const BoundSelect& query, ResultRows rows,
                     const std::vector<Value>& parameters, std::shared_ptr<StringHeap> strings) {
  if (query.distinct_outputs) {
    rows = rows.gather(distinct_rows(query, first_columns(query.visible_outputs), rows));
  }
  int64_t offset = resolve_count(query.offset, query.offset_parameter, parameters, 0, "OFFSET");
  int64_t limit = resolve_count(query.limit, query.limit_parameter, parameters, INT64_MAX, "LIMIT");
  if (auto order = sorted_rows(query, rows, strings.get(), rows_needed(query, parameters))) {
    if (!keeps_every_row_in_place(*order, rows.size())) rows = rows.gather(*order);
  }
  if (!query.distinct_on.empty()) {
    rows = rows.gather(
        distinct_rows(query, {query.distinct_on.begin(), query.distinct_on.end()}, rows));
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
  if (begin != 0 || end != rows.size()) rows = rows.gather(row_range(begin, end));
  rows.keep_columns(query.visible_outputs);  // hidden outputs (ORDER BY expressions) go
  result.rows = std::move(rows);
  return result;
}

Result finish_result(const BoundSelect& query, const std::vector<std::vector<Value>>& rows,
                     const std::vector<Value>& parameters, std::shared_ptr<StringHeap> strings) {
  ResultRows columns = output_rows(query);
  columns.reserve(rows.size());
  for (const auto& row : rows) columns.push_back(row);
  return finish_result(query, std::move(columns), parameters, std::move(strings));
}

}  // namespace tally
