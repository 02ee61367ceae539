#include "runtime/load/csv_sniffer.h"

#include <fmt/format.h>

#include <cctype>
#include <set>

#include "compiler/common/error.h"
#include "runtime/load/column_guess.h"
#include "runtime/load/delimited_records.h"
#include "runtime/load/file_source.h"
#include "runtime/load/raw_buffer.h"

namespace tally {

namespace {

constexpr char kCandidateDelimiters[] = {',', '\t', '|', ';'};
constexpr size_t kDelimiterSampleRecords = 50;
// How much of a file the types are guessed from (a whole line of the longest length fits).
constexpr size_t kSampleBytes = kMaxLineBytes;

struct Record {
  size_t line = 0;  // 1-based line where the record starts
  std::vector<std::string> fields;
  std::vector<ColumnGuess> guesses;
};

RecordFormat csv_format(char delimiter) { return {delimiter, true, false}; }

// Field counts of the first records; the delimiter that gives one count, above 1, in
// every sampled record wins, the highest count first.
char sniff_delimiter(std::string_view text) {
  char best = ',';
  size_t best_fields = 1;
  for (char delimiter : kCandidateDelimiters) {
    RecordReader reader(csv_format(delimiter), text.data(), text.data() + text.size());
    std::string error;
    size_t fields = 0, records = 0;
    bool consistent = true;
    while (records < kDelimiterSampleRecords && reader.next(error)) {
      size_t n = reader.fields().size();
      if (records++ == 0) fields = n;
      consistent = consistent && error.empty() && n == fields;
    }
    if (consistent && fields > best_fields) best = delimiter, best_fields = fields;
  }
  return best;
}

[[noreturn]] void throw_data_error(const std::string& path, size_t line, const std::string& what) {
  throw Error(ErrorKind::Data, fmt::format("read_csv: {} line {}: {}", path, line, what));
}

// The sample's first record (a header, maybe), and the guesses of the later records
// widened into one per column. Only the first record is kept: the sample is 16 MiB.
struct SampleRecords {
  Record first;
  std::vector<ColumnGuess> rest;
};

// Reads every record of `text`; throws at a malformed or ragged record.
SampleRecords read_records(std::string_view text, const std::string& path,
                           const RecordFormat& format) {
  SampleRecords sample;
  RecordReader reader(format, text.data(), text.data() + text.size());
  std::string error, scratch;
  for (bool first = true; reader.next(error); first = false) {
    size_t line = reader.record_start_lines() + 1;
    if (!error.empty()) throw_data_error(path, line, error);
    std::span<RawField> fields = reader.fields();
    if (first) {
      sample.first.line = line;
      for (const RawField& field : fields) {
        sample.first.fields.emplace_back(field_text(field, format, scratch));
        sample.first.guesses.push_back(guess_field(sample.first.fields.back(), field.quoted));
      }
      sample.rest.resize(fields.size());
      continue;
    }
    if (fields.size() != sample.rest.size()) {
      throw_data_error(
          path, line,
          fmt::format("expected {} fields, found {}", sample.rest.size(), fields.size()));
    }
    for (size_t c = 0; c < fields.size(); ++c) {
      sample.rest[c].add(guess_field(field_text(fields[c], format, scratch), fields[c].quoted));
    }
  }
  return sample;
}

// A name is a value that is not a number or date; a header has at least one where its
// column holds numbers or dates, or (all columns text) consists of distinct non-empty ones.
bool looks_like_header(const Record& first, const std::vector<ColumnGuess>& rest) {
  bool all_text = true;
  for (size_t c = 0; c < rest.size(); ++c) {
    bool text_column = rest[c].kind == GuessKind::Varchar || rest[c].kind == GuessKind::Null;
    if (!text_column && first.guesses[c].kind == GuessKind::Varchar) return true;
    all_text = all_text && text_column;
  }
  if (!all_text) return false;
  std::set<std::string> names;
  for (size_t c = 0; c < first.fields.size(); ++c) {
    if (first.guesses[c].kind != GuessKind::Varchar || first.fields[c].empty()) return false;
    names.insert(first.fields[c]);
  }
  return names.size() == first.fields.size();
}

// Header names in lower case, as unquoted names are (so `Region` is queried as region),
// spaces around them trimmed; empty or repeated ones get the position, so that every
// column can be named in the query.
std::vector<std::string> column_names(const Record* header, size_t count) {
  std::vector<std::string> names;
  std::set<std::string> seen;
  for (size_t c = 0; c < count; ++c) {
    std::string name;
    if (header) {
      name = header->fields[c];
      name.erase(0, name.find_first_not_of(" \t"));
      name.erase(name.find_last_not_of(" \t") + 1);
      for (char& ch : name) ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
    }
    if (name.empty()) name = fmt::format("column{}", c);
    if (!seen.insert(name).second) name = fmt::format("{}_{}", name, c);
    seen.insert(name);
    names.push_back(std::move(name));
  }
  return names;
}

// The file's first kSampleBytes, cut after its last whole record when the file is longer:
// the types guessed from it are checked on every row by the load, which names the line
// and column of a value that does not fit. A gzip file is sniffed on its inflated text.
struct Sample {
  RawBuffer buffer;
  size_t size = 0;
};

Sample read_sample(const std::string& path) {
  FileSource file("read_csv", path);
  Sample sample;
  sample.buffer.resize(kSampleBytes + 1);
  for (size_t n = 1; n > 0 && sample.size < sample.buffer.size(); sample.size += n) {
    n = file.read(sample.buffer.data() + sample.size, sample.buffer.size() - sample.size);
  }
  if (sample.size <= kSampleBytes) return sample;
  sample.size = last_record_end(sample.buffer.data(), sample.size, csv_format(','));
  if (sample.size == 0) {
    throw Error(ErrorKind::Data,
                fmt::format("read_csv: {} line 1: the line is longer than the maximum line "
                            "length ({} MiB)",
                            path, kMaxLineBytes >> 20));
  }
  return sample;
}

}  // namespace

SniffedCsv sniff_csv(std::string_view text, const std::string& path, const CsvHints& hints) {
  if (text.find_first_not_of(" \t\r\n") == std::string_view::npos) {
    throw Error(ErrorKind::Data, fmt::format("read_csv: {} is empty", path));
  }
  SniffedCsv sniffed;
  CopyOptions& options = sniffed.options;
  options.delimiter = hints.delimiter.value_or(sniff_delimiter(text));
  options.csv = true;
  options.null_text = "";
  options.statement = "read_csv";
  SampleRecords sample = read_records(text, path, csv_format(options.delimiter));
  std::vector<ColumnGuess>& rest = sample.rest;
  size_t count = rest.size();
  options.header = hints.header.value_or(looks_like_header(sample.first, rest));
  if (!options.header) {
    for (size_t c = 0; c < count; ++c) rest[c].add(sample.first.guesses[c]);
  }
  std::vector<std::string> names = column_names(options.header ? &sample.first : nullptr, count);
  for (size_t c = 0; c < count; ++c) sniffed.columns.push_back({names[c], rest[c].type(), false});
  return sniffed;
}

SniffedCsv sniff_csv_file(const std::string& path, const CsvHints& hints) {
  Sample sample = read_sample(path);
  return sniff_csv({sample.buffer.data(), sample.size}, path, hints);
}

}  // namespace tally
