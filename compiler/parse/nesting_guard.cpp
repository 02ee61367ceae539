#include "compiler/parse/nesting_guard.h"

#include <fmt/format.h>

#include "TallySQLParser.h"
#include "compiler/parse/depth_limits.h"
#include "compiler/parse/syntax_error.h"

namespace tally {
namespace {

using tally_grammar::TallySQLParser;

// A rule that starts a nesting level: every `expression` (what parentheses, arguments and
// CASE parts hold), and a unary minus or NOT applied to another one.
bool opens_level(const antlr4::ParserRuleContext& ctx) {
  size_t rule = ctx.getRuleIndex();
  if (rule == TallySQLParser::RuleExpression) return true;
  if (rule != TallySQLParser::RuleUnaryExpression && rule != TallySQLParser::RuleNotExpression) {
    return false;
  }
  auto* parent = dynamic_cast<const antlr4::ParserRuleContext*>(ctx.parent);
  return parent != nullptr && parent->getRuleIndex() == rule;
}

}  // namespace

void NestingGuard::enterEveryRule(antlr4::ParserRuleContext* ctx) {
  if (!opens_level(*ctx)) return;
  // The outermost expression is level 0: `SELECT (1)` nests one level.
  if (++depth_ <= kMaxNestingDepth + 1) return;
  const antlr4::Token* at = ctx->getStart();
  SourceLocation location{static_cast<int>(at->getLine()),
                          static_cast<int>(at->getCharPositionInLine()) + 1};
  throw make_syntax_error(
      source_, location,
      fmt::format("expression nested too deeply (more than {} levels)", kMaxNestingDepth));
}

void NestingGuard::exitEveryRule(antlr4::ParserRuleContext* ctx) {
  if (opens_level(*ctx)) --depth_;
}

}  // namespace tally
