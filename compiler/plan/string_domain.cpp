#include "compiler/plan/string_domain.h"

#include <fmt/format.h>

#include <set>

#include "compiler/common/error.h"

namespace tally {

namespace {

// Ids are 32-bit on the device (and a domain this large would not be worth a table).
constexpr uint64_t kMaxDomainBound = 1ull << 31;

// The scan columns `e` reads; false if it reads anything above the aggregation.
bool read_columns(const Expr& e, std::set<int>& columns) {
  if (e.kind == ExprKind::GroupKeyRef || e.kind == ExprKind::AggregateRef) return false;
  if (e.kind == ExprKind::ColumnRef) columns.insert(e.index);
  for (const auto& c : e.children) {
    if (!read_columns(*c, columns)) return false;
  }
  return true;
}

bool reads_column(const Expr& e) {
  std::set<int> columns;
  return !read_columns(e, columns) || !columns.empty();
}

void add_leaves(const ExprPtr& e, const BoundSelect& query, const std::vector<ColumnStats>& stats,
                StringDomainShape& shape, bool& nullable) {
  int column = string_leaf_column(*e, query);
  if (column != kNotStringLeaf) {
    if (e->kind == ExprKind::ColumnRef) {
      nullable = stats[column].has_nulls;
    } else {
      nullable = e->kind != ExprKind::Constant || e->value.null;
    }
    for (const auto& leaf : shape.leaves) {
      if (expr_equal(*leaf, *e)) return;
    }
    shape.leaves.push_back(e);
    // A column's strings, and for a computed leaf the string its NULL code may give.
    uint64_t values = column < 0 ? 1 : stats[column].dictionary_size;
    if (column >= 0 && e->kind != ExprKind::ColumnRef) values += 1;
    shape.bound += values;
    return;
  }
  if (e->kind == ExprKind::Case) {
    // The result is one branch's value: NULL only where a branch may be NULL.
    nullable = false;
    for (size_t i = 1; i < e->children.size(); i += 2) {
      bool branch = false;
      add_leaves(e->children[i], query, stats, shape, branch);
      nullable |= branch;
    }
    bool otherwise = false;
    add_leaves(e->children.back(), query, stats, shape, otherwise);
    nullable |= otherwise;
    return;
  }
  if (e->kind == ExprKind::Coalesce) {
    // NULL only where every argument may be NULL.
    nullable = true;
    for (const auto& c : e->children) {
      bool child = false;
      add_leaves(c, query, stats, shape, child);
      nullable &= child;
    }
    return;
  }
  unsupported_on_gpu(fmt::format(
      "the string expression \"{}\" (computed strings must come from one VARCHAR column, "
      "constants and parameters, or CASE/COALESCE over them)",
      e->text));
}

}  // namespace

int string_leaf_column(const Expr& e, const BoundSelect& query) {
  std::set<int> columns;
  if (!read_columns(e, columns) || columns.size() > 1) return kNotStringLeaf;
  if (columns.empty()) return -1;
  int column = *columns.begin();
  return query.scan[column].type.is_string() ? column : kNotStringLeaf;
}

StringDomainShape string_domain_shape(const Expr& e, const BoundSelect& query,
                                      const std::vector<ColumnStats>& stats) {
  StringDomainShape shape;
  // The caller's ExprPtr is not at hand: the leaves share the nodes below a copy of the top.
  add_leaves(std::make_shared<Expr>(e), query, stats, shape, shape.nullable);
  if (shape.bound > kMaxDomainBound) {
    unsupported_on_gpu(fmt::format("the string expression \"{}\" with up to {} distinct strings",
                                   e.text, shape.bound));
  }
  return shape;
}

StringRead string_read(const Expr& e) {
  StringRead r;
  if (e.type.is_string() || e.kind == ExprKind::IsNull) return r;
  bool any_string = false;
  for (const auto& c : e.children) any_string |= c->type.is_string();
  if (!any_string) return r;
  if (e.kind == ExprKind::Compare && e.children.size() == 2 && e.children[0]->type.is_string() &&
      e.children[1]->type.is_string() && reads_column(*e.children[0]) &&
      reads_column(*e.children[1]) && !expr_equal(*e.children[0], *e.children[1])) {
    r.kind = StringRead::Kind::TwoStrings;
    return r;
  }
  for (const auto& c : e.children) {
    if (!reads_column(*c)) continue;
    if (!c->type.is_string()) {
      // No such node today (the binder gives operands one type class); refuse, not guess.
      unsupported_on_gpu(fmt::format("strings beside other values in \"{}\"", e.text));
    }
    if (r.source != nullptr && !expr_equal(*r.source, *c)) {
      bool columns = r.source->kind == ExprKind::ColumnRef && c->kind == ExprKind::ColumnRef;
      unsupported_on_gpu(fmt::format("comparing strings of two {} in \"{}\"",
                                     columns ? "columns" : "different expressions", e.text));
    }
    r.source = c.get();
  }
  r.kind = r.source ? StringRead::Kind::PerString : StringRead::Kind::Constant;
  return r;
}

ExprPtr joint_string_domain(const Expr& comparison) {
  auto joint = std::make_shared<Expr>();
  joint->kind = ExprKind::Coalesce;
  joint->type = comparison.children[0]->type;
  joint->children = {comparison.children[0], comparison.children[1]};
  joint->text = comparison.text;
  return joint;
}

ExprPtr replace_subexpression(const ExprPtr& e, const Expr& target, const ExprPtr& by) {
  if (expr_equal(*e, target)) return by;
  std::shared_ptr<Expr> copy;
  for (size_t i = 0; i < e->children.size(); ++i) {
    ExprPtr child = replace_subexpression(e->children[i], target, by);
    if (child == e->children[i]) continue;
    if (!copy) copy = std::make_shared<Expr>(*e);
    copy->children[i] = child;
  }
  return copy ? copy : e;
}

}  // namespace tally
