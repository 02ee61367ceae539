#include "runtime/result/delimited_writer.h"

#include <algorithm>
#include <iterator>
#include <string_view>
#include <utility>
#include <vector>

namespace tally {

namespace {

std::string csv_field(const std::string& s, const DelimitedFormat& format) {
  const bool special = s.find_first_of("\"\n\r") != std::string::npos ||
                       s.find(format.delimiter) != std::string::npos;
  if (!special && !(format.quote_null_lookalike && s == format.null_text)) return s;
  std::string quoted = "\"";
  for (char ch : s) {
    if (ch == '"') quoted += '"';
    quoted += ch;
  }
  return quoted + "\"";
}

// PostgreSQL text format: the characters that would end a field or a line, and the
// backslash itself, are written as escapes; COPY FROM reads them back.
std::string backslash_field(const std::string& s, char delimiter) {
  static constexpr std::pair<char, std::string_view> kEscapes[] = {
      {'\\', "\\\\"}, {'\n', "\\n"}, {'\r', "\\r"}, {'\t', "\\t"}};
  std::string out;
  for (char ch : s) {
    const auto* escape = std::find_if(std::begin(kEscapes), std::end(kEscapes),
                                      [ch](const auto& e) { return e.first == ch; });
    if (escape != std::end(kEscapes)) {
      out += escape->second;
      continue;
    }
    if (ch == delimiter) out += '\\';
    out += ch;
  }
  return out;
}

std::string field(const std::string& s, const DelimitedFormat& format) {
  switch (format.escapes) {
    case DelimitedFormat::Escapes::Csv:
      return csv_field(s, format);
    case DelimitedFormat::Escapes::Backslash:
      return backslash_field(s, format.delimiter);
    default:
      return s;
  }
}

// Whether a number's text (a sign, digits, a point) can need no quote or escape in `format`:
// none of its characters is the delimiter, and none of them reads as the NULL text.
bool numbers_plain(const DelimitedFormat& format) {
  constexpr std::string_view kNumberChars = "-.0123456789";
  const bool null_like = format.quote_null_lookalike && !format.null_text.empty() &&
                         format.null_text.find_first_not_of(kNumberChars) == std::string::npos;
  return kNumberChars.find(format.delimiter) == std::string_view::npos && !null_like;
}

}  // namespace

std::string delimited_header(const Result& result, const DelimitedFormat& format) {
  std::string out;
  for (size_t c = 0; c < result.names.size(); ++c) {
    if (c) out += format.delimiter;
    out += field(result.names[c], format);
  }
  return out + "\n";
}

std::string delimited_rows(const Result& result, size_t begin, size_t end,
                           const DelimitedFormat& format) {
  std::string out;
  // Integers and DECIMALs are spelled in place where their text needs no quotes or escapes.
  const bool plain = numbers_plain(format);
  const std::vector<bool> in_place =
      plain ? result.columns_spelled_in_place() : std::vector<bool>(result.names.size(), false);
  for (size_t i = begin; i < end; ++i) {
    for (size_t c = 0; c < result.names.size(); ++c) {
      if (c) out += format.delimiter;
      if (result.rows.column(c).is_null(i)) {
        out += format.null_text;
      } else if (in_place[c]) {
        result.append_cell_text(out, i, c);
      } else {
        out += field(result.cell_text(i, c), format);
      }
    }
    out += "\n";
  }
  return out;
}

}  // namespace tally
