// GROUP BY: plain keys, GROUP BY ALL, and GROUPING SETS / ROLLUP / CUBE expanded into the
// list of grouping sets. Elements combine as PostgreSQL's cross product:
// `GROUP BY a, ROLLUP (b, c)` is the sets (a, b, c), (a, b), (a).
#include <fmt/format.h>

#include <cstdint>

#include "compiler/parse/transformer.h"

namespace tally {

namespace {

// More sets than this is an error: each set is one more GROUP BY pass.
constexpr size_t kMaxGroupingSets = 64;

void check_set_count(size_t count, antlr4::Token* at) {
  if (count <= kMaxGroupingSets) return;
  throw Error(ErrorKind::Binder,
              fmt::format("too many grouping sets ({}; at most {})", count, kMaxGroupingSets),
              location_of(at));
}

// Every set of `left` joined with every set of `right`, left's keys first.
GroupingSets cross_product(const GroupingSets& left, const GroupingSets& right, antlr4::Token* at) {
  check_set_count(left.size() * right.size(), at);
  GroupingSets product;
  for (const auto& l : left) {
    for (const auto& r : right) {
      std::vector<int> set = l;
      set.insert(set.end(), r.begin(), r.end());
      product.push_back(std::move(set));
    }
  }
  return product;
}

}  // namespace

void Transformer::transform_group_by(P::GroupByClauseContext& ctx, ast::SelectStmt& select) {
  select.group_by_location = location_of(ctx.start);
  if (ctx.ALL() != nullptr) {
    select.group_by_all = true;
    return;
  }
  bool has_forms = false;
  GroupingSets sets{{}};
  for (P::GroupingElementContext* element : ctx.groupingElement()) {
    GroupingSets element_sets = transform_grouping_element(*element, select.group_by, &has_forms);
    sets = cross_product(sets, element_sets, element->start);
  }
  // A plain GROUP BY is its one set, the keys in text order.
  if (has_forms) select.grouping_sets = std::move(sets);
}

GroupingSets Transformer::transform_grouping_element(P::GroupingElementContext& ctx,
                                                     std::vector<ast::ExprPtr>& keys,
                                                     bool* has_forms) {
  if (auto* columns = dynamic_cast<P::ColumnsGroupingContext*>(&ctx)) {
    std::vector<int> set = transform_grouping_columns(*columns->groupingColumns(), keys);
    // `()` and `(a, b)` are grouping-set forms; a lone key is a plain GROUP BY item.
    if (columns->groupingColumns()->LPAREN() != nullptr) *has_forms = true;
    return {std::move(set)};
  }
  *has_forms = true;
  if (auto* rollup = dynamic_cast<P::RollupGroupingContext*>(&ctx)) {
    return rollup_sets(rollup->groupingColumns(), keys);
  }
  if (auto* cube = dynamic_cast<P::CubeGroupingContext*>(&ctx)) {
    const size_t n = cube->groupingColumns().size();
    check_set_count(n >= 32 ? SIZE_MAX : size_t{1} << n, cube->start);
    return cube_sets(cube->groupingColumns(), keys);
  }
  auto& sets_ctx = dynamic_cast<P::GroupingSetsGroupingContext&>(ctx);
  GroupingSets sets;
  for (P::GroupingElementContext* element : sets_ctx.groupingElement()) {
    GroupingSets inner = transform_grouping_element(*element, keys, has_forms);
    check_set_count(sets.size() + inner.size(), element->start);
    sets.insert(sets.end(), inner.begin(), inner.end());
  }
  return sets;
}

std::vector<int> Transformer::transform_grouping_columns(P::GroupingColumnsContext& ctx,
                                                         std::vector<ast::ExprPtr>& keys) {
  std::vector<int> set;
  for (P::ExpressionContext* e : ctx.expression()) {
    set.push_back(static_cast<int>(keys.size()));
    keys.push_back(transform_expression(*e));
  }
  return set;
}

// ROLLUP (c1, ..., cn): (c1..cn), (c1..cn-1), ..., ().
GroupingSets Transformer::rollup_sets(const std::vector<P::GroupingColumnsContext*>& lists,
                                      std::vector<ast::ExprPtr>& keys) {
  std::vector<std::vector<int>> columns;
  for (P::GroupingColumnsContext* list : lists) {
    columns.push_back(transform_grouping_columns(*list, keys));
  }
  GroupingSets sets;
  for (size_t n = columns.size() + 1; n-- > 0;) {
    std::vector<int> set;
    for (size_t i = 0; i < n; ++i) set.insert(set.end(), columns[i].begin(), columns[i].end());
    sets.push_back(std::move(set));
  }
  return sets;
}

// CUBE (c1, ..., cn): every subset, largest first, in PostgreSQL's order.
GroupingSets Transformer::cube_sets(const std::vector<P::GroupingColumnsContext*>& lists,
                                    std::vector<ast::ExprPtr>& keys) {
  std::vector<std::vector<int>> columns;
  for (P::GroupingColumnsContext* list : lists) {
    columns.push_back(transform_grouping_columns(*list, keys));
  }
  const size_t n = columns.size();
  GroupingSets sets;
  for (size_t absent = 0; absent < (size_t{1} << n); ++absent) {
    std::vector<int> set;
    for (size_t i = 0; i < n; ++i) {
      if ((absent >> (n - 1 - i)) & 1) continue;
      set.insert(set.end(), columns[i].begin(), columns[i].end());
    }
    sets.push_back(std::move(set));
  }
  return sets;
}

}  // namespace tally
