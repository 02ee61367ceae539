// The bytes of a file that COPY or read_csv reads: as they are on disk, or inflated as they
// are read when the file is gzip (known by its magic bytes, whatever its name), so that a
// compressed file is never held whole in memory.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

struct gzFile_s;  // zlib's

namespace tally {

class FileSource {
 public:
  // `statement` names the statement in errors ("COPY t", "read_csv"). Throws Error(Io)
  // when the file cannot be opened.
  FileSource(std::string statement, std::string path);
  ~FileSource();
  FileSource(const FileSource&) = delete;
  FileSource& operator=(const FileSource&) = delete;

  // Reads up to `size` bytes into `data`; 0 at the end of the file. Throws Error(Io) when
  // the file cannot be read, Error(Data) when its gzip data is damaged or cut short.
  size_t read(char* data, size_t size);

  bool gzip() const { return gz_ != nullptr; }
  // The size on disk; 0 when unknown (a pipe).
  uint64_t file_bytes() const { return file_bytes_; }
  // Bytes of the file on disk consumed so far (for gzip, compressed bytes).
  uint64_t file_bytes_read() const;
  // What the text will take in memory at least: the file's size, or for gzip the size its
  // trailer records (modulo 4 GiB, as gzip keeps it) when larger.
  uint64_t text_bytes_hint() const { return text_bytes_hint_; }

 private:
  size_t read_gzip(char* data, size_t size);
  [[noreturn]] void fail_io(const char* what) const;
  [[noreturn]] void fail_gzip(const std::string& why) const;

  std::string statement_;
  std::string path_;
  int fd_ = -1;
  gzFile_s* gz_ = nullptr;  // owns fd_ once opened
  uint64_t file_bytes_ = 0;
  uint64_t text_bytes_hint_ = 0;
  uint64_t plain_read_ = 0;
};

}  // namespace tally
