#include "tools/slt/parse.h"

#include <fmt/format.h>

#include <fstream>
#include <sstream>
#include <utility>

#include "compiler/common/error.h"

namespace tally::slt {

namespace {

constexpr std::string_view kSeparator = "----";

std::vector<std::string> split_lines(std::string_view text) {
  std::vector<std::string> lines;
  std::istringstream in{std::string(text)};
  std::string line;
  while (std::getline(in, line)) {
    if (!line.empty() && line.back() == '\r') line.pop_back();
    lines.push_back(line);
  }
  return lines;
}

std::vector<std::string> split_words(const std::string& line) {
  std::istringstream in(line);
  std::vector<std::string> words;
  for (std::string word; in >> word;) words.push_back(word);
  return words;
}

bool is_blank(const std::string& line) {
  return line.find_first_not_of(" \t") == std::string::npos;
}

// Walks the lines of one file; every parse error names path:line.
class LineReader {
 public:
  LineReader(std::string_view text, const std::string& path)
      : lines_(split_lines(text)), path_(path) {}

  bool done() const { return next_ >= lines_.size(); }
  const std::string& peek() const { return lines_[next_]; }
  int line_number() const { return static_cast<int>(next_) + 1; }
  void skip() { ++next_; }

  [[noreturn]] void fail(int line, const std::string& message) const {
    throw Error(ErrorKind::Syntax, fmt::format("{}:{}: {}", path_, line, message));
  }

  // Lines up to (not including) a blank line, the end, or -- when `stop_at_separator` --
  // a "----" line, which is left unread.
  std::vector<std::string> read_block(bool stop_at_separator) {
    std::vector<std::string> block;
    while (!done() && !is_blank(peek()) && !(stop_at_separator && peek() == kSeparator)) {
      block.push_back(lines_[next_++]);
    }
    return block;
  }

  // Consumes a "----" line if one is next.
  bool take_separator() {
    if (done() || peek() != kSeparator) return false;
    ++next_;
    return true;
  }

 private:
  std::vector<std::string> lines_;
  std::string path_;
  size_t next_ = 0;
};

std::string join_lines(const std::vector<std::string>& lines) {
  std::string joined;
  for (size_t i = 0; i < lines.size(); ++i) joined += (i ? "\n" : "") + lines[i];
  return joined;
}

std::string read_sql(LineReader& reader, const Record& record) {
  std::string sql = join_lines(reader.read_block(true));
  if (sql.empty()) reader.fail(record.line, "the record has no SQL");
  return sql;
}

void parse_statement(const std::vector<std::string>& words, LineReader& reader, Record& record) {
  if (words.size() < 2 || (words[1] != "ok" && words[1] != "error")) {
    reader.fail(record.line, "expected 'statement ok' or 'statement error'");
  }
  record.kind = words[1] == "ok" ? RecordKind::StatementOk : RecordKind::StatementError;
  record.sql = read_sql(reader, record);
  if (!reader.take_separator()) return;
  if (record.kind == RecordKind::StatementOk) {
    reader.fail(record.line, "'statement ok' takes no expected output");
  }
  std::string message = join_lines(reader.read_block(false));
  if (!message.empty()) record.expected_error = message;
}

SortMode parse_sort_mode(const std::string& word, LineReader& reader, int line) {
  if (word == "nosort") return SortMode::NoSort;
  if (word == "rowsort") return SortMode::RowSort;
  if (word == "valuesort") return SortMode::ValueSort;
  reader.fail(line, fmt::format("unknown sort mode '{}' (nosort, rowsort or valuesort)", word));
}

void parse_query(const std::vector<std::string>& words, LineReader& reader, Record& record) {
  record.kind = RecordKind::Query;
  if (words.size() < 2) reader.fail(record.line, "'query' needs the column types, e.g. 'query IT'");
  record.types = words[1];
  if (record.types.find_first_not_of("ITR") != std::string::npos) {
    reader.fail(record.line,
                fmt::format("column types '{}': use I (integer), T (text), R (real)", words[1]));
  }
  // A label after the sort mode (SQLite's result labels) is accepted and ignored.
  if (words.size() >= 3) record.sort = parse_sort_mode(words[2], reader, record.line);
  record.sql = read_sql(reader, record);
  if (reader.take_separator()) record.expected = reader.read_block(false);
}

}  // namespace

bool applies_to(const Record& record, const std::string& engine) {
  for (const Condition& c : record.conditions) {
    if (c.only != (c.engine == engine)) return false;
  }
  return true;
}

TestFile parse_test_file(std::string_view text, const std::string& path) {
  TestFile file{path, {}};
  LineReader reader(text, path);
  std::vector<Condition> conditions;
  while (!reader.done()) {
    std::vector<std::string> words = split_words(reader.peek());
    const int line = reader.line_number();
    reader.skip();
    if (words.empty() || words[0].starts_with('#')) continue;
    const std::string& head = words[0];
    if (head == "hash-threshold" || head == "mode") continue;
    if (head == "skipif" || head == "onlyif") {
      if (words.size() < 2) reader.fail(line, fmt::format("'{}' needs an engine name", head));
      conditions.push_back({head == "onlyif", words[1]});
      continue;
    }
    Record record;
    record.line = line;
    record.conditions = std::exchange(conditions, {});
    if (head == "halt") {
      record.kind = RecordKind::Halt;
    } else if (head == "statement") {
      parse_statement(words, reader, record);
    } else if (head == "query") {
      parse_query(words, reader, record);
    } else {
      reader.fail(line, fmt::format("unknown record '{}'", head));
    }
    file.records.push_back(std::move(record));
  }
  if (!conditions.empty()) {
    reader.fail(reader.line_number() - 1, "skipif/onlyif at the end of the file, before no record");
  }
  return file;
}

TestFile load_test_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw Error(ErrorKind::Io, fmt::format("cannot open {}", path));
  std::ostringstream text;
  text << in.rdbuf();
  return parse_test_file(text.str(), path);
}

}  // namespace tally::slt
