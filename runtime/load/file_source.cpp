#include "runtime/load/file_source.h"

#include <fcntl.h>
#include <fmt/format.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

#include "compiler/common/error.h"

namespace tally {

namespace {

// zlib's own input buffer: large reads, few system calls.
constexpr unsigned kGzipBuffer = 1u << 18;

// Whether the file starts with gzip's magic bytes. A pipe cannot be peeked at: plain.
bool starts_with_gzip_magic(int fd) {
  unsigned char magic[2];
  return ::pread(fd, magic, 2, 0) == 2 && magic[0] == 0x1f && magic[1] == 0x8b;
}

// The uncompressed size a gzip file's trailer records (its last four bytes, little-endian).
uint64_t gzip_trailer_size(int fd, uint64_t file_bytes) {
  unsigned char size[4];
  if (file_bytes < 18 || ::pread(fd, size, 4, static_cast<off_t>(file_bytes - 4)) != 4) return 0;
  return size[0] | size[1] << 8 | size[2] << 16 | uint64_t{size[3]} << 24;
}

}  // namespace

FileSource::FileSource(std::string statement, std::string path)
    : statement_(std::move(statement)), path_(std::move(path)) {
  fd_ = ::open(path_.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd_ < 0) fail_io("cannot open");
  struct stat info;
  if (::fstat(fd_, &info) == 0 && S_ISREG(info.st_mode)) {
    file_bytes_ = static_cast<uint64_t>(info.st_size);
  }
  text_bytes_hint_ = file_bytes_;
  if (!starts_with_gzip_magic(fd_)) return;
  text_bytes_hint_ = std::max(file_bytes_, gzip_trailer_size(fd_, file_bytes_));
  gz_ = gzdopen(fd_, "rb");
  if (!gz_) fail_io("cannot open");
  gzbuffer(gz_, kGzipBuffer);
}

FileSource::~FileSource() {
  if (gz_) {
    gzclose_r(gz_);  // closes fd_ too
  } else if (fd_ >= 0) {
    ::close(fd_);
  }
}

uint64_t FileSource::file_bytes_read() const {
  if (!gz_) return plain_read_;
  z_off_t offset = gzoffset(gz_);
  return offset < 0 ? 0 : static_cast<uint64_t>(offset);
}

size_t FileSource::read(char* data, size_t size) {
  if (gz_) return read_gzip(data, size);
  for (;;) {
    ssize_t n = ::read(fd_, data, size);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) fail_io("cannot read");
    plain_read_ += static_cast<uint64_t>(n);
    return static_cast<size_t>(n);
  }
}

size_t FileSource::read_gzip(char* data, size_t size) {
  // gzread takes an unsigned count and returns an int.
  unsigned chunk = static_cast<unsigned>(std::min<size_t>(size, 1u << 30));
  int n = gzread(gz_, data, chunk);
  int status = Z_OK;
  const char* message = gzerror(gz_, &status);
  if (n < 0 || (status != Z_OK && status != Z_STREAM_END)) {
    if (status == Z_ERRNO) fail_io("cannot read");
    // zlib says "unexpected end of file" for a cut file, else what is wrong with the data,
    // after the "<fd:3>: " that stands for the path here.
    std::string why = message && *message ? message : "damaged gzip data";
    if (why.starts_with("<fd:") && why.find(": ") != std::string::npos) {
      why.erase(0, why.find(": ") + 2);
    }
    fail_gzip(why);
  }
  return static_cast<size_t>(n);
}

void FileSource::fail_io(const char* what) const {
  throw Error(ErrorKind::Io,
              fmt::format("{}: {} {}: {}", statement_, what, path_, std::strerror(errno)));
}

void FileSource::fail_gzip(const std::string& why) const {
  throw Error(ErrorKind::Data,
              fmt::format("{}: {} is not a readable gzip file: {}; nothing was loaded", statement_,
                          path_, why));
}

}  // namespace tally
