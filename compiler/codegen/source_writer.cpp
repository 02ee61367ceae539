#include "compiler/codegen/source_writer.h"

#include <algorithm>

namespace tally {

namespace {

// Braces a line opens (positive) or closes, outside character and string literals.
int brace_balance(std::string_view line) {
  int balance = 0;
  char quote = 0;
  for (size_t i = 0; i < line.size(); ++i) {
    const char c = line[i];
    if (quote) {
      if (c == '\\')
        ++i;
      else if (c == quote)
        quote = 0;
    } else if (c == '"' || c == '\'') {
      quote = c;
    } else if (c == '/' && i + 1 < line.size() && line[i + 1] == '/') {
      break;
    } else if (c == '{') {
      ++balance;
    } else if (c == '}') {
      --balance;
    }
  }
  return balance;
}

}  // namespace

void SourceWriter::line(std::string_view text) {
  out_.append(2 * static_cast<size_t>(std::max(depth_, 0)), ' ');
  out_ += text;
  out_ += '\n';
}

void SourceWriter::lines(std::string_view text) {
  const int base = depth_;
  while (!text.empty()) {
    size_t end = text.find('\n');
    std::string_view l = text.substr(0, end);
    text = end == std::string_view::npos ? std::string_view() : text.substr(end + 1);
    l.remove_prefix(std::min(l.find_first_not_of(" \t"), l.size()));
    if (l.empty()) continue;
    const int balance = brace_balance(l);
    if (l.front() == '}') --depth_;  // a closing line sits at its block's depth
    line(l);
    if (l.front() == '}') ++depth_;
    depth_ += balance;
  }
  depth_ = base;
}

SourceWriter::Block SourceWriter::block(std::string_view head, std::string_view close) {
  line(std::string(head) + " {");
  ++depth_;
  return Block(*this, close);
}

SourceWriter::Block::~Block() {
  if (w_ == nullptr) return;
  --w_->depth_;
  w_->line(close_);
}

}  // namespace tally
