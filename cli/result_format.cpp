#include "cli/result_format.h"

#include <fmt/format.h>

#include <algorithm>
#include <functional>
#include <mutex>
#include <sstream>

#include "compiler/common/run_parallel.h"
#include "runtime/result/delimited_writer.h"

namespace tally {

namespace {

constexpr size_t kRowsPerChunk = 1 << 14;  // rows a formatting task spells

// f(begin, end) over chunks of rows [0, rows), on all cores.
void for_row_chunks(size_t rows, const std::function<void(size_t, size_t)>& f) {
  run_parallel((rows + kRowsPerChunk - 1) / kRowsPerChunk,
               [&](size_t p) { f(p * kRowsPerChunk, std::min(rows, (p + 1) * kRowsPerChunk)); });
}

bool right_aligned(const Type& t) { return t.is_numeric(); }

// A cell's text into `cell` (cleared first): empty for NULL, as psql prints it.
void spell_table_cell(const Result& r, size_t i, size_t c, std::string& cell) {
  cell.clear();
  if (!r.rows.column(c).is_null(i)) r.append_cell_text(cell, i, c);
}

// Cell c of row i as a number, for the rows of a column spelled in place.
int128 number_at(const ResultColumn& cells, size_t i) {
  return cells.wide() ? cells.cells()[i] : int128{cells.word(i)};
}

// The rows of column c's least and greatest non-NULL numbers in [begin, end), or `end` where
// there are none. A number's text grows with its magnitude (and a minus sign), so they are the
// widest of the column: 6 M rows of numbers were spelled twice, once for the widths.
std::pair<size_t, size_t> number_extremes(const ResultColumn& cells, size_t begin, size_t end) {
  size_t low = end, high = end;
  for (size_t i = begin; i < end; ++i) {
    if (cells.is_null(i)) continue;
    const int128 v = number_at(cells, i);
    if (low == end || v < number_at(cells, low)) low = i;
    if (high == end || v > number_at(cells, high)) high = i;
  }
  return {low, high};
}

std::vector<size_t> table_widths(const Result& r) {
  const size_t n = r.names.size();
  std::vector<size_t> width(n);
  for (size_t c = 0; c < n; ++c) width[c] = r.names[c].size();
  const std::vector<bool> in_place = r.columns_spelled_in_place();
  std::mutex mutex;
  for_row_chunks(r.rows.size(), [&](size_t begin, size_t end) {
    std::vector<size_t> local(n);
    std::string cell;
    auto widen = [&](size_t i, size_t c) {
      spell_table_cell(r, i, c, cell);
      local[c] = std::max(local[c], cell.size());
    };
    for (size_t c = 0; c < n; ++c) {
      if (!in_place[c]) continue;
      const auto [low, high] = number_extremes(r.rows.column(c), begin, end);
      if (low != end) widen(low, c);
      if (high != end) widen(high, c);
    }
    for (size_t i = begin; i < end; ++i) {
      for (size_t c = 0; c < n; ++c) {
        if (!in_place[c]) widen(i, c);
      }
    }
    std::lock_guard lock(mutex);
    for (size_t c = 0; c < n; ++c) width[c] = std::max(width[c], local[c]);
  });
  return width;
}

std::string table_header(const Result& r, const std::vector<size_t>& width) {
  std::string out;
  for (size_t c = 0; c < r.names.size(); ++c) {
    size_t pad = width[c] - r.names[c].size();
    out += (c ? " | " : " ") + std::string(pad / 2, ' ') + r.names[c] +
           std::string(pad - pad / 2, ' ');
  }
  out += "\n";
  for (size_t c = 0; c < r.names.size(); ++c) out += (c ? "-+-" : "-") + std::string(width[c], '-');
  return out + "-\n";
}

std::string table_rows(const Result& r, const std::vector<size_t>& width, size_t begin,
                       size_t end) {
  const std::vector<bool> in_place = r.columns_spelled_in_place();
  std::string out, cell;
  for (size_t i = begin; i < end; ++i) {
    for (size_t c = 0; c < r.names.size(); ++c) {
      out += c ? " | " : " ";
      spell_table_cell(r, i, c, cell);
      if (in_place[c]) {  // a number: ASCII, a byte a column, right-aligned
        out.append(width[c] - cell.size(), ' ');
        out += cell;
      } else {
        out += right_aligned(r.types[c]) ? fmt::format("{:>{}}", cell, width[c])
                                         : fmt::format("{:<{}}", cell, width[c]);
      }
    }
    // psql trims trailing blanks of the last column.
    while (!out.empty() && out.back() == ' ') out.pop_back();
    out += "\n";
  }
  return out;
}

// The command's CSV: NULL and '' both print as an empty field, as psql's --csv does.
const DelimitedFormat kCsv{',', DelimitedFormat::Escapes::Csv, "", false};

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

std::string json_rows(const Result& r, size_t begin, size_t end) {
  std::string out;
  for (size_t i = begin; i < end; ++i) {
    out += i ? ",\n {" : "\n {";
    for (size_t c = 0; c < r.names.size(); ++c) {
      out += (c ? ", " : "") + json_string(r.names[c]) + ": " + json_value(r, i, c);
    }
    out += "}";
  }
  return out;
}

// Names right-aligned to the longest, so the values line up.
std::string line_rows(const Result& r, size_t begin, size_t end) {
  size_t width = 0;
  for (const std::string& name : r.names) width = std::max(width, name.size());
  std::string out;
  for (size_t i = begin; i < end; ++i) {
    if (i > 0) out += "\n";
    for (size_t c = 0; c < r.names.size(); ++c) {
      out += fmt::format("{:>{}} = {}\n", r.names[c], width, r.cell_text(i, c));
    }
  }
  return out;
}

// Writes rows [0, rows) as `format_rows` spells them: a window of chunks is formatted on
// all cores, then written in order, so a large result streams out in bounded memory.
void write_rows(std::ostream& out, size_t rows,
                const std::function<std::string(size_t, size_t)>& format_rows) {
  if (rows <= kRowsPerChunk) {  // one chunk: spelled here
    out << format_rows(0, rows);
    return;
  }
  const size_t window = worker_threads() * 4 * kRowsPerChunk;
  for (size_t first = 0; first < rows; first += window) {
    const size_t last = std::min(rows, first + window);
    std::vector<std::string> parts((last - first + kRowsPerChunk - 1) / kRowsPerChunk);
    run_parallel(parts.size(), [&](size_t p) {
      const size_t begin = first + p * kRowsPerChunk;
      parts[p] = format_rows(begin, std::min(last, begin + kRowsPerChunk));
    });
    for (const std::string& part : parts) out << part;
  }
}

}  // namespace

void write_result(std::ostream& out, const Result& r, OutputFormat format) {
  const size_t rows = r.rows.size();
  switch (format) {
    case OutputFormat::Csv:
      out << delimited_header(r, kCsv);
      write_rows(out, rows, [&](size_t b, size_t e) { return delimited_rows(r, b, e, kCsv); });
      return;
    case OutputFormat::Json:
      out << "[";
      write_rows(out, rows, [&](size_t b, size_t e) { return json_rows(r, b, e); });
      out << (rows == 0 ? "]\n" : "\n]\n");
      return;
    case OutputFormat::Line:
      write_rows(out, rows, [&](size_t b, size_t e) { return line_rows(r, b, e); });
      return;
    default: {
      const std::vector<size_t> width = table_widths(r);
      out << table_header(r, width);
      write_rows(out, rows, [&](size_t b, size_t e) { return table_rows(r, width, b, e); });
      out << fmt::format("({} row{})\n", rows, rows == 1 ? "" : "s");
    }
  }
}

std::string format_result(const Result& result, OutputFormat format) {
  std::ostringstream out;
  write_result(out, result, format);
  return out.str();
}

}  // namespace tally
