// Comparisons in expressions, and pattern matching.
#include <cmath>

#include "compiler/eval/internal.h"

namespace tally {

namespace detail {

Value eval_compare(const Expr& e, const Value& a, const Value& b, const StringHeap* strings) {
  if (a.null || b.null) return Value();
  const Type& ta = e.children[0]->type;
  const Type& tb = e.children[1]->type;
  int c;
  if (ta.is_decimal()) {
    c = compare_decimal(a.d, ta.scale, b.d, tb.scale);
  } else if (ta.is_string() && (e.op == kEq || e.op == kNe)) {
    c = a.i == b.i ? 0 : 1;  // interned: equal strings have equal ids
  } else {
    c = compare_values(a, b, ta, strings);
  }
  bool r = false;
  switch (e.op) {
    case kEq:
      r = c == 0;
      break;
    case kNe:
      r = c != 0;
      break;
    case kLt:
      r = c < 0;
      break;
    case kLe:
      r = c <= 0;
      break;
    case kGt:
      r = c > 0;
      break;
    case kGe:
      r = c >= 0;
      break;
  }
  return Value::from_bool(r);
}

}  // namespace detail

namespace {

// Bytes of the UTF-8 character that starts at text[i]: '_' and the backtracking of '%'
// step over characters, as PostgreSQL's LIKE does, never into the middle of one.
size_t character_bytes(std::string_view text, size_t i) {
  size_t n = 1;
  while (i + n < text.size() && (static_cast<unsigned char>(text[i + n]) & 0xc0) == 0x80) ++n;
  return n;
}

}  // namespace

bool like_match(std::string_view text, std::string_view pattern) {
  // Iterative wildcard match with backtracking to the last '%': linear for typical
  // patterns, never exponential.
  size_t t = 0, p = 0, star_p = std::string_view::npos, star_t = 0;
  while (t < text.size()) {
    // '%' first: a '%' in the text must not be matched as a literal by the pattern's '%'.
    if (p < pattern.size() && pattern[p] == '%') {
      star_p = p++;
      star_t = t;
    } else if (p < pattern.size() && pattern[p] == '_') {
      t += character_bytes(text, t);
      ++p;
    } else if (p < pattern.size() && pattern[p] == text[t]) {
      ++t, ++p;
    } else if (star_p != std::string_view::npos) {
      p = star_p + 1;
      star_t += character_bytes(text, star_t);
      t = star_t;
    } else {
      return false;
    }
  }
  while (p < pattern.size() && pattern[p] == '%') ++p;
  return p == pattern.size();
}

}  // namespace tally
