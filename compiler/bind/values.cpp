// VALUES rows as a table: each column takes the common type of its items, as PostgreSQL
// types a VALUES list (integer and decimal -> decimal; an untyped NULL takes the others'
// type; a column of NULLs alone is VARCHAR, PostgreSQL's text).
#include "compiler/bind/binder.h"
#include "compiler/bind/expression_binder.h"

namespace tally {

Type ExpressionBinder::unified_type(const std::vector<const ast::Expr*>& items,
                                    const char* construct) {
  std::vector<Operand> ops;
  for (const ast::Expr* item : items) ops.push_back(bind_operand(*item));
  return unify(ops, construct);
}

BoundValues bind_values(const std::vector<std::vector<ast::ExprPtr>>& rows) {
  BoundValues bound;
  const size_t columns = rows.empty() ? 0 : rows.front().size();
  for (size_t c = 0; c < columns; ++c) {
    std::vector<const ast::Expr*> items;
    for (const auto& row : rows) items.push_back(row.at(c).get());
    BindContext ctx(nullptr, {}, 0);
    Type type = ExpressionBinder(ctx, {"VALUES", false}).unified_type(items, "VALUES");
    bound.types.push_back(type.id == TypeId::Null ? Type::varchar() : type);
  }
  for (const auto& row : rows) {
    std::vector<ExprPtr> constants;
    for (size_t c = 0; c < columns; ++c)
      constants.push_back(bind_constant(*row[c], bound.types[c]));
    bound.rows.push_back(std::move(constants));
  }
  return bound;
}

}  // namespace tally
