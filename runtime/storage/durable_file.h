// The file primitives of tables on disk (runtime/storage/table_file.h,
// runtime/session/database_store.h): checked writes, fsync, CRC-32 and I/O errors that name
// the file.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace tally {

// CRC-32 (zlib's) of `size` bytes, continuing `crc` (0 starts one).
uint32_t crc32_of(const void* data, size_t size, uint32_t crc = 0);

// Throws Error(Io) "<what> <path>: <strerror(errno)>".
[[noreturn]] void throw_io_error(std::string_view what, const std::string& path);

// Writes all `size` bytes to `fd` (retrying short writes), or throws naming `path`.
void write_all(int fd, const void* data, size_t size, const std::string& path);

// Writes `bytes` to `path` (created or truncated) and fsyncs it, or throws naming it.
void write_durable_file(const std::string& path, std::string_view bytes);

}  // namespace tally
