#include "runtime/storage/durable_file.h"

#include <fcntl.h>
#include <fmt/format.h>
#include <unistd.h>
#include <zlib.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

#include "compiler/common/error.h"

namespace tally {

uint32_t crc32_of(const void* data, size_t size, uint32_t crc) {
  const auto* bytes = static_cast<const Bytef*>(data);
  while (size > 0) {  // zlib takes lengths as uInt
    const uInt chunk = static_cast<uInt>(std::min<size_t>(size, 1u << 30));
    crc = static_cast<uint32_t>(crc32(crc, bytes, chunk));
    bytes += chunk;
    size -= chunk;
  }
  return crc;
}

void throw_io_error(std::string_view what, const std::string& path) {
  throw Error(ErrorKind::Io, fmt::format("{} {}: {}", what, path, std::strerror(errno)));
}

void write_all(int fd, const void* data, size_t size, const std::string& path) {
  const char* p = static_cast<const char*>(data);
  while (size > 0) {
    ssize_t n = ::write(fd, p, size);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) throw_io_error("cannot write", path);
    p += n;
    size -= static_cast<size_t>(n);
  }
}

void write_durable_file(const std::string& path, std::string_view bytes) {
  int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0) throw_io_error("cannot create", path);
  try {
    write_all(fd, bytes.data(), bytes.size(), path);
    if (::fsync(fd) != 0) throw_io_error("cannot sync", path);
  } catch (...) {
    ::close(fd);
    throw;
  }
  if (::close(fd) != 0) throw_io_error("cannot write", path);
}

}  // namespace tally
