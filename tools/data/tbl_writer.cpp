#include "tools/data/tbl_writer.h"

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cstdio>
#include <cstring>
#include <memory>

#include "compiler/common/date.h"
#include "compiler/common/decimal.h"
#include "compiler/common/error.h"
#include "compiler/common/interval_value.h"
#include "compiler/common/time_of_day.h"
#include "runtime/load/parallel.h"

namespace tally {

namespace {

// Text of one field is at most this long (a 38-digit DECIMAL with sign and point; the
// longest INTERVAL, "-178956970 years -8 mons -2147483648 days -2562047788:00:54.775808").
constexpr size_t kMaxField = 80;

// Rows formatted in memory; grows as needed.
class TextBuffer {
 public:
  // Room for `n` more bytes.
  char* reserve(size_t n) {
    if (used_ + n > bytes_.size()) bytes_.resize(std::max(bytes_.size() * 2, used_ + n + 4096));
    return bytes_.data() + used_;
  }
  void commit(char* end) { used_ = static_cast<size_t>(end - bytes_.data()); }
  void write(std::string_view s) {
    char* out = reserve(s.size());
    std::memcpy(out, s.data(), s.size());
    commit(out + s.size());
  }
  void put(char c) {
    char* out = reserve(1);
    *out = c;
    commit(out + 1);
  }
  std::string_view text() const { return {bytes_.data(), used_}; }
  void clear() { used_ = 0; }  // keeps the memory for the next batch

 private:
  std::vector<char> bytes_;
  size_t used_ = 0;
};

class OutputFile {
 public:
  explicit OutputFile(const std::string& path) : path_(path) {
    file_ = std::fopen(path.c_str(), "wb");
    if (!file_) fail("cannot open");
  }
  // A file not closed successfully is removed: a failed write leaves no partial output.
  ~OutputFile() {
    if (file_) {
      std::fclose(file_);
      std::remove(path_.c_str());
    }
  }
  OutputFile(const OutputFile&) = delete;
  OutputFile& operator=(const OutputFile&) = delete;

  void write(std::string_view text) {
    if (!text.empty() && std::fwrite(text.data(), 1, text.size(), file_) != text.size()) {
      fail("cannot write");
    }
  }
  void close() {
    FILE* file = file_;
    file_ = nullptr;
    if (std::fclose(file) != 0) {
      int error = errno;
      std::remove(path_.c_str());
      errno = error;
      fail("cannot write");
    }
  }

 private:
  [[noreturn]] void fail(const char* what) {
    throw Error(ErrorKind::Io, std::string(what) + " " + path_ + ": " + std::strerror(errno));
  }

  std::string path_;
  FILE* file_ = nullptr;
};

char* write_digits(char* out, int value, int width) {
  for (int i = width - 1; i >= 0; --i, value /= 10) out[i] = static_cast<char>('0' + value % 10);
  return out + width;
}

char* write_date(char* out, int32_t days) {
  CivilDate c = civil_from_days(days);
  if (c.year < 0 || c.year > 9999) {
    std::string text = format_date(days);
    std::memcpy(out, text.data(), text.size());
    return out + text.size();
  }
  out = write_digits(out, c.year, 4);
  *out++ = '-';
  out = write_digits(out, c.month, 2);
  *out++ = '-';
  return write_digits(out, c.day, 2);
}

// Unscaled int64 DECIMAL: the digits of |v|, a point before the last `scale` of them.
char* write_decimal(char* out, int64_t v, int scale) {
  if (scale == 0) return std::to_chars(out, out + kMaxField, v).ptr;
  uint64_t magnitude = v < 0 ? 0 - static_cast<uint64_t>(v) : static_cast<uint64_t>(v);
  if (v < 0) *out++ = '-';
  char digits[24];
  char* end = std::to_chars(digits, digits + sizeof digits, magnitude).ptr;
  int count = static_cast<int>(end - digits);
  int whole = count - scale;
  if (whole <= 0) {
    *out++ = '0';
  } else {
    std::memcpy(out, digits, static_cast<size_t>(whole));
    out += whole;
  }
  *out++ = '.';
  for (int i = whole; i < 0; ++i) *out++ = '0';
  int from = whole < 0 ? 0 : whole;
  std::memcpy(out, digits + from, static_cast<size_t>(count - from));
  return out + (count - from);
}

char* write_field(char* out, const Column& column, size_t row) {
  const Type& type = column.type();
  switch (type.id) {
    case TypeId::Boolean:
      *out++ = column.get_int(row) ? 't' : 'f';
      return out;
    case TypeId::Date:
      return write_date(out, static_cast<int32_t>(column.get_int(row)));
    case TypeId::Timestamp:
    case TypeId::TimestampTz:
    case TypeId::Time: {
      std::string text = format_micros_text(type.id, column.get_int(row));
      std::memcpy(out, text.data(), text.size());
      return out + text.size();
    }
    case TypeId::Interval: {
      std::string text = format_interval(unpack_interval(column.get_wide(row)));
      std::memcpy(out, text.data(), text.size());
      return out + text.size();
    }
    case TypeId::Real:
      return std::to_chars(out, out + kMaxField, static_cast<float>(column.get_double(row))).ptr;
    case TypeId::Double:
      return std::to_chars(out, out + kMaxField, column.get_double(row)).ptr;
    case TypeId::Decimal:
    case TypeId::HugeInt:
      if (!type.is_wide()) return write_decimal(out, column.get_int(row), type.scale);
      {
        std::string text = format_decimal(column.get_wide(row), type.scale);
        std::memcpy(out, text.data(), text.size());
        return out + text.size();
      }
    default:
      return std::to_chars(out, out + kMaxField, column.get_int(row)).ptr;
  }
}

void check_writable_strings(const Table& table, char delimiter) {
  for (size_t c = 0; c < table.columns.size(); ++c) {
    for (const std::string& s : table.columns[c]->dictionary()) {
      if (s.find_first_of(std::string{delimiter, '\n', '\r'}) != std::string::npos) {
        throw Error(ErrorKind::Unsupported,
                    "cannot write " + table.schema.name + "." + table.schema.columns[c].name +
                        " as delimited text: a value contains the delimiter or a line break");
      }
    }
  }
}

void format_rows(const Table& table, size_t begin, size_t end, char delimiter,
                 bool trailing_delimiter, TextBuffer& out) {
  size_t columns = table.columns.size();
  for (size_t row = begin; row < end; ++row) {
    for (size_t c = 0; c < columns; ++c) {
      const Column& column = *table.columns[c];
      if (column.is_valid(row)) {
        if (column.type().is_string()) {
          out.write(column.dictionary()[static_cast<size_t>(column.get_int(row))]);
        } else {
          out.commit(write_field(out.reserve(kMaxField), column, row));
        }
      }
      if (c + 1 < columns || trailing_delimiter) out.put(delimiter);
    }
    out.put('\n');
  }
}

}  // namespace

// Batches of rows are formatted in parallel, a round of one batch per thread at a time,
// and written in order.
void write_tbl(const Table& table, const std::string& path, char delimiter,
               bool trailing_delimiter) {
  constexpr size_t kBatchRows = 1 << 16;
  check_writable_strings(table, delimiter);
  OutputFile file(path);
  size_t rows = table.rows();
  size_t batches = (rows + kBatchRows - 1) / kBatchRows;
  size_t threads = worker_threads();
  std::vector<TextBuffer> texts(threads);
  for (size_t first = 0; first < batches; first += threads) {
    size_t count = std::min(threads, batches - first);
    run_parallel(count, [&](size_t t) {
      texts[t].clear();
      size_t begin = (first + t) * kBatchRows;
      format_rows(table, begin, std::min(rows, begin + kBatchRows), delimiter, trailing_delimiter,
                  texts[t]);
    });
    for (size_t t = 0; t < count; ++t) file.write(texts[t].text());
  }
  file.close();
}

}  // namespace tally
