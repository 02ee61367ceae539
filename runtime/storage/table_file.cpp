#include "runtime/storage/table_file.h"

#include <fcntl.h>
#include <fmt/format.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <limits>
#include <string_view>

#include "compiler/common/error.h"
#include "runtime/storage/durable_file.h"

namespace tally {

namespace {

constexpr char kMagic[8] = {'T', 'A', 'L', 'L', 'Y', 'T', 'B', 'L'};
// Version 2 adds TIMESTAMP columns. A table without one is still written as version 1,
// which earlier readers take; they refuse a version 2 file by its version, never misread it.
constexpr uint32_t kVersion = 1;
constexpr uint32_t kTimestampVersion = 2;
// Version 3 adds TIMESTAMPTZ and TIME columns, so a version 2 reader refuses them by version
// rather than calling their type ids damage.
constexpr uint32_t kTimeVersion = 3;
// Version 4 adds HUGEINT and INTERVAL columns (16 plain bytes a row, as a wide DECIMAL's;
// an INTERVAL's months, days and micros packed).
constexpr uint32_t kWideTypesVersion = 4;
constexpr TypeId kLastTypeId = TypeId::Interval;

uint32_t version_for(const Table& table) {
  uint32_t version = kVersion;
  for (const auto& column : table.schema.columns) {
    const TypeId id = column.type.id;
    if (id == TypeId::HugeInt || id == TypeId::Interval) return kWideTypesVersion;
    if (id == TypeId::TimestampTz || id == TypeId::Time) version = kTimeVersion;
    if (id == TypeId::Timestamp) version = std::max(version, kTimestampVersion);
  }
  return version;
}
constexpr size_t kHeaderBytes = sizeof(kMagic) + 4 + 8 + 4;  // magic, version, length, CRC
constexpr size_t kWriteBuffer = size_t{4} << 20;

// Buffered writes of the payload to an open file, with its running CRC and length.
class PayloadWriter {
 public:
  PayloadWriter(int fd, const std::string& path) : fd_(fd), path_(path) {
    buffer_.reserve(kWriteBuffer);
  }
  template <class T>
  void scalar(T value) {
    bytes(&value, sizeof(T));
  }
  void bytes(const void* data, size_t size) {
    crc_ = crc32_of(data, size, crc_);
    length_ += size;
    if (buffer_.size() + size > kWriteBuffer) flush();
    if (size >= kWriteBuffer) return write_all(fd_, data, size, path_);
    buffer_.append(static_cast<const char*>(data), size);
  }
  void text(std::string_view s) {
    scalar<uint64_t>(s.size());
    bytes(s.data(), s.size());
  }
  template <class T>
  void array(const T* data, size_t count) {
    scalar<uint64_t>(count);
    bytes(data, count * sizeof(T));
  }
  void flush() {
    write_all(fd_, buffer_.data(), buffer_.size(), path_);
    buffer_.clear();
  }
  uint32_t crc() const { return crc_; }
  uint64_t length() const { return length_; }

 private:
  int fd_;
  const std::string& path_;
  std::string buffer_;
  uint32_t crc_ = 0;
  uint64_t length_ = 0;
};

// Reads the payload, checking every length against what is left.
class PayloadReader {
 public:
  PayloadReader(std::string_view data, const std::string& path) : data_(data), path_(path) {}
  template <class T>
  T scalar() {
    T value;
    std::memcpy(&value, take(sizeof(T)), sizeof(T));
    return value;
  }
  std::string text() {
    uint64_t size = count(1);
    return std::string(take(size), size);
  }
  template <class T>
  std::vector<T> array() {
    uint64_t n = count(sizeof(T));
    std::vector<T> values(n);
    if (n > 0) std::memcpy(values.data(), take(n * sizeof(T)), n * sizeof(T));
    return values;
  }
  bool done() const { return data_.empty(); }
  [[noreturn]] void damaged(const std::string& why) const {
    throw Error(ErrorKind::Data, fmt::format("the table file {} is damaged: {}", path_, why));
  }

 private:
  uint64_t count(size_t element_bytes) {
    uint64_t n = scalar<uint64_t>();
    if (n > data_.size() / element_bytes) damaged("a length runs past the end of the file");
    return n;
  }
  const char* take(size_t size) {
    if (size > data_.size()) damaged("it ends early");
    const char* p = data_.data();
    data_.remove_prefix(size);
    return p;
  }
  std::string_view data_;
  const std::string& path_;
};

std::string read_whole_file(const std::string& path) {
  int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) throw_io_error("cannot open", path);
  std::string data;
  struct stat info;
  if (::fstat(fd, &info) == 0 && info.st_size > 0) data.reserve(static_cast<size_t>(info.st_size));
  char chunk[1 << 16];
  for (;;) {
    ssize_t n = ::read(fd, chunk, sizeof(chunk));
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) {
      int error = errno;
      ::close(fd);
      errno = error;
      throw_io_error("cannot read", path);
    }
    if (n == 0) break;
    data.append(chunk, static_cast<size_t>(n));
  }
  ::close(fd);
  return data;
}

}  // namespace

// Reads and writes Column's private fields (a friend of Column).
struct ColumnCodec {
  static void write(const Column& c, PayloadWriter& out) {
    out.scalar<uint8_t>(static_cast<uint8_t>(c.type_.id));
    out.scalar<uint8_t>(c.type_.precision);
    out.scalar<uint8_t>(c.type_.scale);
    out.scalar<uint32_t>(c.type_.length);
    out.scalar<uint8_t>(c.type_.fixed_length);
    out.scalar<uint8_t>(static_cast<uint8_t>(c.encoding_));
    out.scalar<uint64_t>(c.size_);
    out.scalar<uint64_t>(c.null_count_);
    out.array(c.validity_.data(), c.validity_.size());
    std::span<const uint8_t> plain = c.plain_bytes();
    out.array(plain.data(), plain.size());
    out.array(c.packed_.data(), c.packed_.size());
    out.scalar<int64_t>(c.base_);
    out.scalar<int32_t>(c.bits_);
    out.scalar<int64_t>(c.min_);
    out.scalar<int64_t>(c.max_);
    out.scalar<uint64_t>(c.dictionary_.size());
    for (const std::string& s : c.dictionary_) out.text(s);
  }

  static ColumnPtr read(PayloadReader& in) {
    auto c = std::make_shared<Column>();
    uint8_t id = in.scalar<uint8_t>();
    if (id > static_cast<uint8_t>(kLastTypeId)) in.damaged("an unknown column type");
    c->type_.id = static_cast<TypeId>(id);
    c->type_.precision = in.scalar<uint8_t>();
    c->type_.scale = in.scalar<uint8_t>();
    c->type_.length = in.scalar<uint32_t>();
    c->type_.fixed_length = in.scalar<uint8_t>() != 0;
    uint8_t encoding = in.scalar<uint8_t>();
    if (encoding > static_cast<uint8_t>(Encoding::Dictionary)) in.damaged("an unknown encoding");
    c->encoding_ = static_cast<Encoding>(encoding);
    c->size_ = in.scalar<uint64_t>();
    c->null_count_ = in.scalar<uint64_t>();
    c->validity_ = in.array<uint64_t>();
    c->plain_ = in.array<uint8_t>();
    c->packed_ = in.array<uint64_t>();
    c->base_ = in.scalar<int64_t>();
    c->bits_ = in.scalar<int32_t>();
    c->min_ = in.scalar<int64_t>();
    c->max_ = in.scalar<int64_t>();
    uint64_t words = in.scalar<uint64_t>();
    for (uint64_t i = 0; i < words; ++i) c->dictionary_.push_back(in.text());
    check_shape(*c, in);
    c->scan_wide_range();
    return c;
  }

  // What the decoders rely on: buffers as long as the rows need.
  static void check_shape(const Column& c, const PayloadReader& in) {
    const uint64_t rows = c.size_;
    if (!c.validity_.empty() && c.validity_.size() != (rows + 63) / 64) {
      in.damaged("a validity bitmap of the wrong length");
    }
    if (c.null_count_ > rows) in.damaged("more NULLs than rows");
    if (c.encoding_ == Encoding::Plain && c.type_.id != TypeId::Null &&
        c.plain_.size() != rows * physical_width(c.type_)) {
      in.damaged("plain values of the wrong length");
    }
    if (c.encoding_ != Encoding::Plain) {
      if (c.bits_ < 0 || c.bits_ > 64) in.damaged("an impossible bit width");
      const uint64_t needed = (rows * static_cast<uint64_t>(c.bits_) + 63) / 64 + 1;
      if (c.packed_.size() < needed) in.damaged("packed values of the wrong length");
    }
    if (c.encoding_ == Encoding::Dictionary && rows > c.null_count_ &&
        (c.min_ < 0 || static_cast<uint64_t>(c.max_) >= c.dictionary_.size())) {
      in.damaged("dictionary codes outside the dictionary");
    }
  }
};

void write_table_file(const Table& table, const std::string& path) {
  int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0) throw_io_error("cannot create", path);
  try {
    char header[kHeaderBytes] = {};
    write_all(fd, header, kHeaderBytes, path);  // the real header goes here at the end
    PayloadWriter out(fd, path);
    out.text(table.schema.name);
    out.scalar<uint32_t>(static_cast<uint32_t>(table.schema.columns.size()));
    for (size_t i = 0; i < table.schema.columns.size(); ++i) {
      out.text(table.schema.columns[i].name);
      out.scalar<uint8_t>(table.schema.columns[i].not_null);
      ColumnCodec::write(*table.columns[i], out);
    }
    out.flush();
    std::memcpy(header, kMagic, sizeof(kMagic));
    const uint64_t length = out.length();
    const uint32_t crc = out.crc();
    const uint32_t version = version_for(table);
    std::memcpy(header + 8, &version, 4);
    std::memcpy(header + 12, &length, 8);
    std::memcpy(header + 20, &crc, 4);
    if (::pwrite(fd, header, kHeaderBytes, 0) != static_cast<ssize_t>(kHeaderBytes)) {
      throw_io_error("cannot write", path);
    }
    if (::fsync(fd) != 0) throw_io_error("cannot sync", path);
  } catch (...) {
    ::close(fd);
    throw;
  }
  if (::close(fd) != 0) throw_io_error("cannot write", path);
}

TablePtr read_table_file(const std::string& path) {
  const std::string data = read_whole_file(path);
  PayloadReader whole(data, path);
  if (data.size() < kHeaderBytes || std::memcmp(data.data(), kMagic, sizeof(kMagic)) != 0) {
    whole.damaged("it is not a tally table file");
  }
  uint32_t version = 0, crc = 0;
  uint64_t length = 0;
  std::memcpy(&version, data.data() + 8, 4);
  std::memcpy(&length, data.data() + 12, 8);
  std::memcpy(&crc, data.data() + 20, 4);
  if (version < kVersion || version > kWideTypesVersion) {
    whole.damaged(fmt::format("format version {} is unknown", version));
  }
  if (length != data.size() - kHeaderBytes) whole.damaged("its length does not match its header");
  const std::string_view payload(data.data() + kHeaderBytes, length);
  if (crc32_of(payload.data(), payload.size()) != crc) {
    whole.damaged("its checksum does not match");
  }
  PayloadReader in(payload, path);
  auto table = std::make_shared<Table>();
  table->schema.name = in.text();
  const uint32_t columns = in.scalar<uint32_t>();
  for (uint32_t i = 0; i < columns; ++i) {
    ColumnSchema column;
    column.name = in.text();
    column.not_null = in.scalar<uint8_t>() != 0;
    ColumnPtr values = ColumnCodec::read(in);
    column.type = values->type();
    table->schema.columns.push_back(std::move(column));
    if (!table->columns.empty() && values->size() != table->columns.front()->size()) {
      in.damaged("columns of different lengths");
    }
    table->columns.push_back(std::move(values));
  }
  if (!in.done()) in.damaged("it has bytes after its last column");
  return table;
}

}  // namespace tally
