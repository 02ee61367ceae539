// The string functions of ExprKind::Function on the host, and ILIKE. Positions and lengths
// count characters (UTF-8 code points), as PostgreSQL does in a UTF-8 database; case
// mapping (UPPER, LOWER, ILIKE) covers ASCII letters only.
#include <fmt/format.h>

#include <algorithm>
#include <cctype>

#include "compiler/common/date.h"
#include "compiler/common/timestamp.h"
#include "compiler/eval/internal.h"
#include "templates/tally_date_parts.cuh"

namespace tally::detail {

namespace {

bool continuation(char c) { return (static_cast<unsigned char>(c) & 0xC0) == 0x80; }

// The byte offset of character `n` (0-based) of s, or s.size() past the end.
size_t char_offset(std::string_view s, int64_t n) {
  size_t i = 0;
  for (; i < s.size() && n > 0; --n) {
    ++i;
    while (i < s.size() && continuation(s[i])) ++i;
  }
  return i;
}

int64_t char_length(std::string_view s) {
  return static_cast<int64_t>(
      std::count_if(s.begin(), s.end(), [](char c) { return !continuation(c); }));
}

// Characters [from, to) of s, 0-based, clamped to s.
std::string_view char_range(std::string_view s, int64_t from, int64_t to) {
  from = std::max<int64_t>(from, 0);
  if (to <= from) return {};
  const size_t begin = char_offset(s, from);
  return s.substr(begin, char_offset(s.substr(begin), to - from));
}

std::string map_ascii(std::string_view s, int (*f)(int)) {
  std::string out(s);
  for (char& c : out) {
    if (static_cast<unsigned char>(c) < 0x80)
      c = static_cast<char>(f(static_cast<unsigned char>(c)));
  }
  return out;
}

// PostgreSQL's SUBSTRING(s FROM start FOR count): characters start .. start + count - 1,
// counted from 1, of those that exist.
std::string_view substring(std::string_view s, int64_t start, const Value* count) {
  if (count == nullptr) return char_range(s, start - 1, INT64_MAX);
  if (count->i < 0) execution_error("negative substring length not allowed");
  const int128 end = static_cast<int128>(start) - 1 + count->i;
  return char_range(s, start - 1, static_cast<int64_t>(std::min<int128>(end, INT64_MAX)));
}

// LEFT(s, n): the first n characters; a negative n drops the last |n|. RIGHT mirrors it.
std::string_view left_right(std::string_view s, int64_t n, bool left) {
  const int64_t length = char_length(s);
  const int64_t keep =
      n >= 0 ? std::min(n, length) : std::max<int64_t>(length + std::max(n, -length), 0);
  return left ? char_range(s, 0, keep) : char_range(s, length - keep, length);
}

bool is_trimmed(std::string_view c, std::string_view characters) {
  for (size_t i = 0; i < characters.size();) {
    size_t next = char_offset(characters.substr(i), 1) + i;
    if (characters.substr(i, next - i) == c) return true;
    i = next;
  }
  return false;
}

std::string_view trim(std::string_view s, std::string_view characters, bool leading,
                      bool trailing) {
  while (leading && !s.empty()) {
    size_t n = char_offset(s, 1);
    if (!is_trimmed(s.substr(0, n), characters)) break;
    s.remove_prefix(n);
  }
  while (trailing && !s.empty()) {
    size_t start = s.size() - 1;
    while (start > 0 && continuation(s[start])) --start;
    if (!is_trimmed(s.substr(start), characters)) break;
    s.remove_suffix(s.size() - start);
  }
  return s;
}

std::string replace_all(std::string_view s, std::string_view from, std::string_view to) {
  if (from.empty()) return std::string(s);
  std::string out;
  for (size_t i = 0;;) {
    size_t hit = s.find(from, i);
    if (hit == std::string_view::npos) return out.append(s.substr(i));
    out.append(s.substr(i, hit - i)).append(to);
    i = hit + from.size();
  }
}

const char* const kMonthNames[] = {"January",   "February", "March",    "April",
                                   "May",       "June",     "July",     "August",
                                   "September", "October",  "November", "December"};
const char* const kDayNames[] = {"Sunday",   "Monday", "Tuesday", "Wednesday",
                                 "Thursday", "Friday", "Saturday"};

// One strftime code of a date and a time of day in micros (DuckDB's codes; a DATE's time
// is midnight). A '-' before the letter drops the zero padding.
std::string format_code(char code, bool pad, int64_t days, int64_t time) {
  using tally_dates::date_field;
  auto number = [pad](int64_t v, int width) {
    return pad ? fmt::format("{:0{}}", v, width) : fmt::format("{}", v);
  };
  const int64_t month = date_field(days, kMonth), dow = date_field(days, kDow);
  switch (code) {
    case 'Y':
      return fmt::format("{}", date_field(days, kYear));
    case 'y':
      return number(date_field(days, kYear) % 100, 2);
    case 'm':
      return number(month, 2);
    case 'd':
      return number(date_field(days, kDay), 2);
    case 'e':
      return fmt::format("{:>2}", date_field(days, kDay));
    case 'j':
      return number(date_field(days, kDoy), 3);
    case 'B':
      return kMonthNames[month - 1];
    case 'b':
    case 'h':
      return std::string(kMonthNames[month - 1], 3);
    case 'A':
      return kDayNames[dow];
    case 'a':
      return std::string(kDayNames[dow], 3);
    case 'w':
      return fmt::format("{}", dow);
    case 'u':
      return fmt::format("{}", date_field(days, kIsoDow));
    case 'V':
      return number(date_field(days, kWeek), 2);
    case 'G':
      return fmt::format("{}", date_field(days, kIsoYear));
    case 'q':
      return fmt::format("{}", date_field(days, kQuarter));
    case 'F':
      return format_date(static_cast<int32_t>(days));
    case 'H':
      return number(time / 3'600'000'000, 2);
    case 'I':
      return number((time / 3'600'000'000 + 11) % 12 + 1, 2);
    case 'M':
      return number(time / 60'000'000 % 60, 2);
    case 'S':
      return number(time / 1'000'000 % 60, 2);
    case 'f':
      return fmt::format("{:06d}", time % 1'000'000);
    case 'p':
      return time < 43'200'000'000 ? "AM" : "PM";
    case '%':
      return "%";
    default:
      execution_error(fmt::format("strftime: the format code \"%{}{}\" is not supported",
                                  pad ? "" : "-", code));
  }
}

std::string strftime_date(int64_t days, int64_t time, std::string_view format) {
  std::string out;
  for (size_t i = 0; i < format.size(); ++i) {
    if (format[i] != '%') {
      out += format[i];
      continue;
    }
    const bool pad = !(i + 1 < format.size() && format[i + 1] == '-');
    if (!pad) ++i;
    if (i + 1 >= format.size()) execution_error("strftime: the format ends inside a % code");
    out += format_code(format[++i], pad, days, time);
  }
  return out;
}

}  // namespace

bool ilike_match(std::string_view text, std::string_view pattern) {
  return like_match(map_ascii(text, std::tolower), map_ascii(pattern, std::tolower));
}

Value eval_string_function(const Expr& e, const std::vector<Value>& args, StringHeap* strings) {
  if (e.op == kConcat) {  // NULLs are skipped
    std::string out;
    for (const Value& v : args) {
      if (!v.null) out += strings->get(v.i);
    }
    return Value::from_int(strings->intern(out));
  }
  for (const Value& v : args) {
    if (v.null) return Value();
  }
  if (e.op == kStrftime) {
    int64_t days = args[0].i, time = 0;
    if (e.children[0]->type.is_timestamp()) {
      days = date_of_timestamp(args[0].i);
      time = args[0].i - days * kMicrosPerDay;
    }
    return Value::from_int(strings->intern(strftime_date(days, time, strings->get(args[1].i))));
  }
  const std::string_view s = strings->get(args[0].i);
  auto text = [&](size_t k) { return std::string_view(strings->get(args[k].i)); };
  auto string = [&](std::string_view r) { return Value::from_int(strings->intern(r)); };
  switch (e.op) {
    case kUpper:
      return string(map_ascii(s, std::toupper));
    case kLower:
      return string(map_ascii(s, std::tolower));
    case kLength:
      return Value::from_int(char_length(s));
    case kSubstring:
      return string(substring(s, args[1].i, args.size() > 2 ? &args[2] : nullptr));
    case kConcatStrict:
      return string(std::string(s).append(text(1)));
    case kTrim:
    case kLtrim:
    case kRtrim:
      return string(trim(s, args.size() > 1 ? text(1) : " ", e.op != kRtrim, e.op != kLtrim));
    case kReplace:
      return string(replace_all(s, text(1), text(2)));
    case kStartsWith:
      return Value::from_bool(s.substr(0, text(1).size()) == text(1));
    default:
      return string(left_right(s, args[1].i, e.op == kLeft));
  }
}

}  // namespace tally::detail
