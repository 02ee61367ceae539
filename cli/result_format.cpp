#include "cli/result_format.h"

#include <fmt/format.h>

#include <algorithm>

namespace tally {

namespace {

bool right_aligned(const Type& t) { return t.is_numeric(); }

std::string format_table(const Result& r) {
  size_t n = r.names.size();
  std::vector<size_t> width(n);
  std::vector<std::vector<std::string>> cells(r.rows.size(), std::vector<std::string>(n));
  for (size_t c = 0; c < n; ++c) width[c] = r.names[c].size();
  for (size_t i = 0; i < r.rows.size(); ++i) {
    for (size_t c = 0; c < n; ++c) {
      // psql prints NULL as an empty cell.
      cells[i][c] = r.rows[i][c].null ? "" : r.cell_text(i, c);
      width[c] = std::max(width[c], cells[i][c].size());
    }
  }
  std::string out;
  for (size_t c = 0; c < n; ++c) {
    size_t pad = width[c] - r.names[c].size();
    out += (c ? " | " : " ") + std::string(pad / 2, ' ') + r.names[c] +
           std::string(pad - pad / 2, ' ');
  }
  out += "\n";
  for (size_t c = 0; c < n; ++c) out += (c ? "-+-" : "-") + std::string(width[c], '-');
  out += "-\n";
  for (const auto& row : cells) {
    for (size_t c = 0; c < n; ++c) {
      out += c ? " | " : " ";
      out += right_aligned(r.types[c]) ? fmt::format("{:>{}}", row[c], width[c])
                                       : fmt::format("{:<{}}", row[c], width[c]);
    }
    // psql trims trailing blanks of the last column.
    while (!out.empty() && out.back() == ' ') out.pop_back();
    out += "\n";
  }
  out += fmt::format("({} row{})\n", r.rows.size(), r.rows.size() == 1 ? "" : "s");
  return out;
}

std::string csv_field(const std::string& s) {
  if (s.find_first_of(",\"\n\r") == std::string::npos) return s;
  std::string q = "\"";
  for (char ch : s) {
    if (ch == '"') q += '"';
    q += ch;
  }
  return q + "\"";
}

std::string format_csv(const Result& r) {
  std::string out;
  for (size_t c = 0; c < r.names.size(); ++c) out += (c ? "," : "") + csv_field(r.names[c]);
  out += "\n";
  for (size_t i = 0; i < r.rows.size(); ++i) {
    for (size_t c = 0; c < r.names.size(); ++c) {
      if (c) out += ",";
      if (!r.rows[i][c].null) out += csv_field(r.cell_text(i, c));
    }
    out += "\n";
  }
  return out;
}

std::string json_string(const std::string& s) {
  std::string out = "\"";
  for (unsigned char ch : s) {
    switch (ch) {
      case '"':
        out += "\\\"";
        break;
      case '\\':
        out += "\\\\";
        break;
      case '\n':
        out += "\\n";
        break;
      case '\t':
        out += "\\t";
        break;
      case '\r':
        out += "\\r";
        break;
      default:
        if (ch < 0x20) {
          out += fmt::format("\\u{:04x}", ch);
        } else {
          out += static_cast<char>(ch);
        }
    }
  }
  return out + "\"";
}

std::string json_value(const Result& r, size_t i, size_t c) {
  const Value& v = r.rows[i][c];
  if (v.null) return "null";
  const Type& t = r.types[c];
  std::string text = r.cell_text(i, c);
  if (t.id == TypeId::Boolean || t.is_integer()) return text;
  // DECIMAL stays a string so that no JSON reader rounds it; floats that JSON can't
  // spell (NaN, Infinity) too.
  if (t.is_float() && text.find_first_of("NI") == std::string::npos) return text;
  return json_string(text);
}

std::string format_json(const Result& r) {
  std::string out = "[";
  for (size_t i = 0; i < r.rows.size(); ++i) {
    out += i ? ",\n {" : "\n {";
    for (size_t c = 0; c < r.names.size(); ++c) {
      out += (c ? ", " : "") + json_string(r.names[c]) + ": " + json_value(r, i, c);
    }
    out += "}";
  }
  out += r.rows.empty() ? "]\n" : "\n]\n";
  return out;
}

// Names right-aligned to the longest, so the values line up.
std::string format_lines(const Result& r) {
  size_t width = 0;
  for (const std::string& name : r.names) width = std::max(width, name.size());
  std::string out;
  for (size_t i = 0; i < r.rows.size(); ++i) {
    if (i > 0) out += "\n";
    for (size_t c = 0; c < r.names.size(); ++c) {
      out += fmt::format("{:>{}} = {}\n", r.names[c], width, r.cell_text(i, c));
    }
  }
  return out;
}

}  // namespace

std::string format_result(const Result& result, OutputFormat format) {
  switch (format) {
    case OutputFormat::Csv:
      return format_csv(result);
    case OutputFormat::Json:
      return format_json(result);
    case OutputFormat::Line:
      return format_lines(result);
    default:
      return format_table(result);
  }
}

}  // namespace tally
