// The listener that enforces kMaxNestingDepth inside ANTLR's parser (it sees ANTLR types,
// so it stays apart from depth_limits.h, which tests and other passes include).
#pragma once

#include <antlr4-runtime.h>

#include <string_view>

namespace tally {

// Installed on the parser while it parses: throws a syntax error at the token that opens
// nesting level kMaxNestingDepth + 1, before ANTLR's recursion can exhaust the stack.
class NestingGuard : public antlr4::tree::ParseTreeListener {
 public:
  explicit NestingGuard(std::string_view source) : source_(source) {}
  void reset() { depth_ = 0; }

  void enterEveryRule(antlr4::ParserRuleContext* ctx) override;
  void exitEveryRule(antlr4::ParserRuleContext* ctx) override;
  void visitTerminal(antlr4::tree::TerminalNode*) override {}
  void visitErrorNode(antlr4::tree::ErrorNode*) override {}

 private:
  std::string_view source_;
  int depth_ = 0;
};

}  // namespace tally
