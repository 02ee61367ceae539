// Comparison, formatting and pattern matching of single values.
#include <fmt/format.h>

#include <cmath>

#include "compiler/common/date.h"
#include "compiler/common/decimal.h"
#include "compiler/eval/internal.h"

namespace tally {

int compare_decimal(int128 a, int sa, int128 b, int sb) {
  // Align scales; if that overflows, the side that overflowed is the larger in magnitude.
  if (sa != sb) {
    if (sa < sb) {
      auto up = upscale(a, sb - sa);
      if (!up) return a < 0 ? -1 : 1;
      a = *up;
    } else {
      auto up = upscale(b, sa - sb);
      if (!up) return b < 0 ? 1 : -1;
      b = *up;
    }
  }
  return a < b ? -1 : (a > b ? 1 : 0);
}

static int compare_doubles(double a, double b) {
  // NaN sorts above every other value and equals itself (PostgreSQL).
  bool na = std::isnan(a), nb = std::isnan(b);
  if (na || nb) return na == nb ? 0 : (na ? 1 : -1);
  return a < b ? -1 : (a > b ? 1 : 0);
}

int compare_values(const Value& a, const Value& b, const Type& type, const StringHeap* strings) {
  switch (type.id) {
    case TypeId::Decimal:
      return compare_decimal(a.d, type.scale, b.d, type.scale);
    case TypeId::Real:
    case TypeId::Double:
      return compare_doubles(a.f, b.f);
    case TypeId::Varchar:
      if (a.i == b.i) return 0;
      return strings->get(a.i).compare(strings->get(b.i)) < 0 ? -1 : 1;
    default:
      return a.i < b.i ? -1 : (a.i > b.i ? 1 : 0);
  }
}

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

static std::string format_double(double v, bool single) {
  if (std::isnan(v)) return "NaN";
  if (std::isinf(v)) return v > 0 ? "Infinity" : "-Infinity";
  // Shortest text that reads back as the same value.
  return single ? fmt::format("{}", static_cast<float>(v)) : fmt::format("{}", v);
}

std::string format_value(const Value& v, const Type& type, const StringHeap* strings) {
  if (v.null) return "NULL";
  switch (type.id) {
    case TypeId::Null:
      return "NULL";
    case TypeId::Boolean:
      return v.i ? "true" : "false";
    case TypeId::SmallInt:
    case TypeId::Integer:
    case TypeId::BigInt:
      return std::to_string(v.i);
    case TypeId::Real:
      return format_double(v.f, true);
    case TypeId::Double:
      return format_double(v.f, false);
    case TypeId::Decimal:
      return format_decimal(v.d, type.scale);
    case TypeId::Date:
      return format_date(static_cast<int32_t>(v.i));
    case TypeId::Varchar:
      return strings->get(v.i);
  }
  return "?";
}

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
