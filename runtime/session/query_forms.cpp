#include "runtime/session/query_forms.h"

#include <fmt/format.h>

#include <set>

#include "compiler/common/error.h"
#include "compiler/parse/ast_walk.h"

namespace tally {

namespace {

bool is_not_distinct_seen(std::set<std::pair<bool, std::string>>& seen, const Value& v,
                          const Type& type, const Result& result) {
  std::string key = v.null               ? std::string()
                    : type.is_string()   ? result.strings->get(v.i)
                    : type.is_exact128() ? fmt::format("{}:{}", static_cast<int64_t>(v.d >> 64),
                                                       static_cast<uint64_t>(v.d))
                    : type.id == TypeId::Real || type.id == TypeId::Double
                        ? fmt::format("{}", v.f == 0 ? 0.0 : v.f)
                        : fmt::format("{}", v.i);
  return !seen.emplace(v.null, std::move(key)).second;
}

}  // namespace

SubqueryResult subquery_result(const ast::Expr& node, const Result& result) {
  SubqueryResult out;
  if (node.kind == ast::ExprKind::Exists) {
    out.type = Type::boolean();
    out.values.push_back(Value::from_bool(!result.rows.empty()));
    return out;
  }
  const bool scalar = node.kind == ast::ExprKind::ScalarSubquery;
  if (result.types.size() != 1) {
    throw Error(ErrorKind::Binder,
                scalar ? "subquery must return only one column" : "subquery has too many columns",
                node.location);
  }
  if (scalar && result.rows.size() > 1) {
    throw Error(ErrorKind::Execution,
                "more than one row returned by a subquery used as an expression", node.location);
  }
  out.type = result.types[0];
  std::set<std::pair<bool, std::string>> seen;  // IN lists need each value once
  for (const auto& row : result.rows) {
    const Value& v = row[0];
    if (is_not_distinct_seen(seen, v, out.type, result)) continue;
    out.values.push_back(v);
    out.texts.push_back(!v.null && out.type.is_string() ? result.strings->get(v.i) : "");
  }
  return out;
}

void refuse_if_correlated(const ast::SelectStmt& inner, const TableSchema* outer,
                          const std::string& outer_name, const Catalog& scope) {
  if (outer == nullptr) return;
  const TableSchema* own = inner.from && inner.from->derived == ast::DerivedKind::None
                               ? scope.find_table(inner.from->name)
                               : nullptr;
  std::string own_name = !inner.from                 ? ""
                         : inner.from->alias.empty() ? inner.from->name
                                                     : inner.from->alias;
  std::optional<SourceLocation> at;
  ast::for_each_expression(inner, [&](const ast::Expr& e) {
    if (at || e.kind != ast::ExprKind::ColumnRef) return;
    bool names_outer = e.qualifier.empty() ? outer->find_column(e.name) >= 0 &&
                                                 !(own && own->find_column(e.name) >= 0)
                                           : e.qualifier == outer_name && e.qualifier != own_name;
    if (names_outer) at = e.location;
  });
  if (at) throw Error(ErrorKind::Unsupported, "correlated subqueries are not supported", *at);
}

std::optional<SourceLocation> first_parameter(const ast::SelectStmt& select) {
  std::optional<SourceLocation> at;
  ast::for_each_expression(select, [&](const ast::Expr& e) {
    if (e.kind != ast::ExprKind::Parameter) return;
    if (!at || e.location.line < at->line ||
        (e.location.line == at->line && e.location.column < at->column)) {
      at = e.location;
    }
  });
  return at;
}

}  // namespace tally
