#include "runtime/data/tbl_writer.h"

#include <cerrno>
#include <charconv>
#include <cstdio>
#include <cstring>
#include <memory>

#include "compiler/date.h"
#include "compiler/decimal.h"
#include "compiler/error.h"

namespace tally {

namespace {

// Text of one field is at most this long (a 38-digit DECIMAL with sign and point).
constexpr size_t kMaxField = 64;

class BufferedFile {
 public:
  explicit BufferedFile(const std::string& path) : path_(path), buffer_(kSize) {
    file_ = std::fopen(path.c_str(), "wb");
    if (!file_) fail("cannot open");
  }
  ~BufferedFile() {
    if (file_) std::fclose(file_);
  }

  // Room for `n` more bytes, flushing when needed.
  char* reserve(size_t n) {
    if (used_ + n > buffer_.size()) flush();
    return buffer_.data() + used_;
  }
  void commit(char* end) { used_ = static_cast<size_t>(end - buffer_.data()); }
  void write(std::string_view s) {
    if (s.size() > buffer_.size()) {
      flush();
      put(s.data(), s.size());
      return;
    }
    char* out = reserve(s.size());
    std::memcpy(out, s.data(), s.size());
    commit(out + s.size());
  }
  void close() {
    flush();
    FILE* file = file_;
    file_ = nullptr;
    if (std::fclose(file) != 0) fail("cannot write");
  }

 private:
  static constexpr size_t kSize = 8 << 20;
  void flush() {
    put(buffer_.data(), used_);
    used_ = 0;
  }
  void put(const char* data, size_t n) {
    if (n && std::fwrite(data, 1, n, file_) != n) fail("cannot write");
  }
  [[noreturn]] void fail(const char* what) {
    throw Error(ErrorKind::Io, std::string(what) + " " + path_ + ": " + std::strerror(errno));
  }

  std::string path_;
  std::vector<char> buffer_;
  size_t used_ = 0;
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
    case TypeId::Real:
      return std::to_chars(out, out + kMaxField, static_cast<float>(column.get_double(row))).ptr;
    case TypeId::Double:
      return std::to_chars(out, out + kMaxField, column.get_double(row)).ptr;
    case TypeId::Decimal:
      if (!type.is_wide_decimal()) return write_decimal(out, column.get_int(row), type.scale);
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

}  // namespace

void write_tbl(const Table& table, const std::string& path, char delimiter,
               bool trailing_delimiter) {
  check_writable_strings(table, delimiter);
  BufferedFile file(path);
  size_t columns = table.columns.size();
  for (size_t row = 0; row < table.rows(); ++row) {
    for (size_t c = 0; c < columns; ++c) {
      const Column& column = *table.columns[c];
      if (column.is_valid(row)) {
        if (column.type().is_string()) {
          file.write(column.dictionary()[static_cast<size_t>(column.get_int(row))]);
        } else {
          char* out = file.reserve(kMaxField);
          file.commit(write_field(out, column, row));
        }
      }
      if (c + 1 < columns || trailing_delimiter) {
        char* out = file.reserve(1);
        *out = delimiter;
        file.commit(out + 1);
      }
    }
    char* out = file.reserve(1);
    *out = '\n';
    file.commit(out + 1);
  }
  file.close();
}

}  // namespace tally
