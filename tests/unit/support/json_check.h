// A strict check that text is one JSON value (RFC 8259) and nothing else but whitespace:
// objects, arrays, strings with their escapes, numbers, true, false, null. For tests of
// output that a JSON reader must accept as it is.
#pragma once

#include <cctype>
#include <cstddef>
#include <string>
#include <string_view>

namespace tally::test {

class JsonCheck {
 public:
  explicit JsonCheck(std::string_view text) : text_(text) {}

  // True when the whole text is one JSON value; else `error` says where it stopped.
  bool valid() {
    space();
    bool ok = value();
    space();
    if (ok && pos_ != text_.size()) ok = fail("text after the value");
    return ok;
  }
  const std::string& error() const { return error_; }

 private:
  bool fail(const char* what) {
    if (error_.empty()) error_ = std::string(what) + " at offset " + std::to_string(pos_);
    return false;
  }
  bool at_end() const { return pos_ >= text_.size(); }
  char peek() const { return at_end() ? '\0' : text_[pos_]; }
  void space() {
    while (!at_end() && (peek() == ' ' || peek() == '\t' || peek() == '\n' || peek() == '\r')) {
      ++pos_;
    }
  }
  bool literal(std::string_view word) {
    if (text_.substr(pos_, word.size()) != word) return fail("an unknown word");
    pos_ += word.size();
    return true;
  }
  bool digits() {
    if (!std::isdigit(static_cast<unsigned char>(peek()))) return fail("a digit expected");
    while (std::isdigit(static_cast<unsigned char>(peek()))) ++pos_;
    return true;
  }
  bool number() {
    if (peek() == '-') ++pos_;
    if (peek() == '0') {
      ++pos_;
    } else if (!digits()) {
      return false;
    }
    if (peek() == '.') {
      ++pos_;
      if (!digits()) return false;
    }
    if (peek() == 'e' || peek() == 'E') {
      ++pos_;
      if (peek() == '+' || peek() == '-') ++pos_;
      if (!digits()) return false;
    }
    return true;
  }
  bool string() {
    ++pos_;  // the opening quote
    while (!at_end() && peek() != '"') {
      auto c = static_cast<unsigned char>(text_[pos_++]);
      if (c < 0x20) return fail("a control character in a string");
      if (c != '\\') continue;
      char escape = peek();
      ++pos_;
      if (escape == 'u') {
        for (int i = 0; i < 4; ++i, ++pos_) {
          if (!std::isxdigit(static_cast<unsigned char>(peek()))) return fail("a bad \\u escape");
        }
      } else if (std::string_view("\"\\/bfnrt").find(escape) == std::string_view::npos) {
        return fail("a bad escape");
      }
    }
    if (at_end()) return fail("an unterminated string");
    ++pos_;
    return true;
  }
  // `open` [ member (, member)* ] `close`, where a member is a value or "key": value.
  bool sequence(char close, bool keyed) {
    ++pos_;
    space();
    if (peek() == close) {
      ++pos_;
      return true;
    }
    for (;;) {
      space();
      if (keyed) {
        if (peek() != '"') return fail("a key expected");
        if (!string()) return false;
        space();
        if (peek() != ':') return fail("':' expected");
        ++pos_;
        space();
      }
      if (!value()) return false;
      space();
      if (peek() == close) {
        ++pos_;
        return true;
      }
      if (peek() != ',') return fail("',' or the end expected");
      ++pos_;
    }
  }
  bool value() {
    switch (peek()) {
      case '{':
        return sequence('}', true);
      case '[':
        return sequence(']', false);
      case '"':
        return string();
      case 't':
        return literal("true");
      case 'f':
        return literal("false");
      case 'n':
        return literal("null");
      default:
        if (peek() == '-' || std::isdigit(static_cast<unsigned char>(peek()))) return number();
        return fail("a value expected");
    }
  }

  std::string_view text_;
  size_t pos_ = 0;
  std::string error_;
};

}  // namespace tally::test
