// The ANTLR error listener installed on tally's lexer and parser: it throws the first
// error as a tally::Error(ErrorKind::Syntax) instead of printing it.
#pragma once

#include <antlr4-runtime.h>

#include <string>
#include <string_view>

namespace tally {

class SyntaxErrorListener : public antlr4::BaseErrorListener {
 public:
  explicit SyntaxErrorListener(std::string_view source) : source_(source) {}

  void syntaxError(antlr4::Recognizer* recognizer, antlr4::Token* offending_token, size_t line,
                   size_t column, const std::string& antlr_message,
                   std::exception_ptr exception) override;

 private:
  std::string_view source_;
};

}  // namespace tally
