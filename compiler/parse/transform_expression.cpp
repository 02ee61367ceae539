// Operators, one method per precedence level (lowest first). Chains of a level such as
// `a - b - c` become left-deep trees: ((a - b) - c).
#include <fmt/format.h>

#include "compiler/parse/depth_limits.h"
#include "compiler/parse/transformer.h"

namespace tally {

// `operands[0] op(0) operands[1] op(1) operands[2] ...`, left-associative: each node spans
// from the chain's first token to its right operand's last.
template <typename Operand, typename OperatorText, typename TransformOperand>
ast::ExprPtr Transformer::fold_left(antlr4::Token* start, const std::vector<Operand*>& operands,
                                    OperatorText operator_text,
                                    TransformOperand transform_operand) {
  ast::ExprPtr result = transform_operand(*operands[0]);
  for (size_t i = 1; i < operands.size(); ++i) {
    result = make_binary(operator_text(i - 1), std::move(result), transform_operand(*operands[i]),
                         start, operands[i]->stop);
  }
  return result;
}

// Every expression is measured as it is built (nested ones first, each node once), so a
// too-deep tree is refused before any recursive pass sees it.
ast::ExprPtr Transformer::transform_expression(P::ExpressionContext& ctx) {
  ast::ExprPtr expr = transform_or(*ctx.orExpression());
  if (measure_depth(*expr) > kMaxExpressionDepth) {
    throw_syntax_error(ctx.start, fmt::format("expression nested too deeply (more than {} "
                                              "operators deep)",
                                              kMaxExpressionDepth));
  }
  return expr;
}

ast::ExprPtr Transformer::transform_or(P::OrExpressionContext& ctx) {
  return fold_left(
      ctx.start, ctx.andExpression(), [](size_t) { return std::string("OR"); },
      [this](P::AndExpressionContext& operand) { return transform_and(operand); });
}

ast::ExprPtr Transformer::transform_and(P::AndExpressionContext& ctx) {
  return fold_left(
      ctx.start, ctx.notExpression(), [](size_t) { return std::string("AND"); },
      [this](P::NotExpressionContext& operand) { return transform_not(operand); });
}

ast::ExprPtr Transformer::transform_not(P::NotExpressionContext& ctx) {
  if (ctx.NOT() == nullptr) return transform_predicate(*ctx.predicate());
  ast::ExprPtr expr = make_expr(ast::ExprKind::Unary, ctx.start, ctx.stop);
  expr->op = "NOT";
  expr->children.push_back(transform_not(*ctx.notExpression()));
  return expr;
}

ast::ExprPtr Transformer::transform_predicate(P::PredicateContext& ctx) {
  ast::ExprPtr result = transform_concat(*ctx.concatExpression());
  for (P::PredicateSuffixContext* suffix : ctx.predicateSuffix()) {
    result = transform_predicate_suffix(std::move(result), *suffix, ctx.start);
  }
  return result;
}

// `value` is what precedes the suffix (`a` in `a NOT LIKE 'x%'`), starting at `start`.
ast::ExprPtr Transformer::transform_predicate_suffix(ast::ExprPtr value,
                                                     P::PredicateSuffixContext& ctx,
                                                     antlr4::Token* start) {
  if (auto* comparison = dynamic_cast<P::ComparisonContext*>(&ctx)) {
    std::string op = comparison->comparisonOperator()->getText();
    if (op == "!=") op = "<>";
    if (op == "==") op = "=";
    return make_binary(op, std::move(value), transform_concat(*comparison->concatExpression()),
                       start, ctx.stop);
  }
  if (auto* in = dynamic_cast<P::InSubqueryContext*>(&ctx)) {
    ast::ExprPtr expr =
        transform_subquery(*in->selectStatement(), ast::ExprKind::InSubquery, start, ctx.stop);
    expr->negated = in->NOT() != nullptr;
    expr->children.push_back(std::move(value));
    return expr;
  }
  ast::ExprPtr expr = make_expr(ast::ExprKind::IsNull, start, ctx.stop);
  expr->children.push_back(std::move(value));
  if (auto* is_null = dynamic_cast<P::IsNullContext*>(&ctx)) {
    expr->negated = is_null->NOT() != nullptr;
  } else if (auto* between = dynamic_cast<P::BetweenContext*>(&ctx)) {
    expr->kind = ast::ExprKind::Between;
    expr->negated = between->NOT() != nullptr;
    expr->children.push_back(transform_concat(*between->low));
    expr->children.push_back(transform_concat(*between->high));
  } else if (auto* in_list = dynamic_cast<P::InListContext*>(&ctx)) {
    expr->kind = ast::ExprKind::InList;
    expr->negated = in_list->NOT() != nullptr;
    for (ast::ExprPtr& item : transform_expressions(in_list->expression())) {
      expr->children.push_back(std::move(item));
    }
  } else {
    auto& like = dynamic_cast<P::LikeContext&>(ctx);
    expr->kind = ast::ExprKind::Like;
    expr->negated = like.NOT() != nullptr;
    if (like.ILIKE() != nullptr) expr->op = "ILIKE";
    expr->children.push_back(transform_concat(*like.concatExpression()));
  }
  return expr;
}

ast::ExprPtr Transformer::transform_concat(P::ConcatExpressionContext& ctx) {
  return fold_left(
      ctx.start, ctx.additiveExpression(), [](size_t) { return std::string("||"); },
      [this](P::AdditiveExpressionContext& operand) { return transform_additive(operand); });
}

// The operator lists are fetched once: ANTLR finds the i-th one by walking every child,
// which over a long chain would cost the square of its length.
ast::ExprPtr Transformer::transform_additive(P::AdditiveExpressionContext& ctx) {
  std::vector<P::AdditiveOperatorContext*> operators = ctx.additiveOperator();
  return fold_left(
      ctx.start, ctx.multiplicativeExpression(),
      [&operators](size_t i) { return operators[i]->getText(); },
      [this](P::MultiplicativeExpressionContext& operand) {
        return transform_multiplicative(operand);
      });
}

ast::ExprPtr Transformer::transform_multiplicative(P::MultiplicativeExpressionContext& ctx) {
  std::vector<P::MultiplicativeOperatorContext*> operators = ctx.multiplicativeOperator();
  return fold_left(
      ctx.start, ctx.unaryExpression(), [&operators](size_t i) { return operators[i]->getText(); },
      [this](P::UnaryExpressionContext& operand) { return transform_unary(operand); });
}

ast::ExprPtr Transformer::transform_unary(P::UnaryExpressionContext& ctx) {
  if (ctx.castExpression() != nullptr) return transform_cast(*ctx.castExpression());
  ast::ExprPtr expr = make_expr(ast::ExprKind::Unary, ctx.start, ctx.stop);
  expr->op = ctx.MINUS() != nullptr ? "-" : "+";
  expr->children.push_back(transform_unary(*ctx.unaryExpression()));
  return expr;
}

// `x::INTEGER::TEXT` casts twice, innermost first.
ast::ExprPtr Transformer::transform_cast(P::CastExpressionContext& ctx) {
  ast::ExprPtr result = transform_primary(*ctx.primary());
  for (P::TypeNameContext* type : ctx.typeName()) {
    ast::ExprPtr cast = make_expr(ast::ExprKind::Cast, ctx.start, type->stop);
    cast->children.push_back(std::move(result));
    cast->cast_type = transform_type_name(*type);
    result = std::move(cast);
  }
  return result;
}

std::vector<ast::ExprPtr> Transformer::transform_expressions(
    const std::vector<P::ExpressionContext*>& list) {
  std::vector<ast::ExprPtr> exprs;
  for (P::ExpressionContext* expression : list) exprs.push_back(transform_expression(*expression));
  return exprs;
}

}  // namespace tally
