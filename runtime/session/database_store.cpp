#include "runtime/session/database_store.h"

#include <fcntl.h>
#include <fmt/format.h>
#include <sys/file.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

#include "compiler/common/error.h"
#include "runtime/storage/durable_file.h"
#include "runtime/storage/table_file.h"

namespace tally {

namespace fs = std::filesystem;

namespace {

constexpr const char* kManifest = "MANIFEST";
constexpr const char* kWriterLock = "LOCK";
// Readers hold it shared while they read; a writer holds it exclusively while it removes
// the files of the manifest it replaced, so no reader finds a file gone.
constexpr const char* kReadersLock = "READERS";
constexpr const char* kHeader = "tally database 1";

[[noreturn]] void io_error(const std::string& what, const fs::path& path) {
  throw_io_error(what, path.string());
}

[[noreturn]] void damaged(const std::string& path, const std::string& why) {
  throw Error(ErrorKind::Data, fmt::format("the database {} is damaged: {}", path, why));
}

uint32_t crc_of(const std::string& text) { return crc32_of(text.data(), text.size()); }

void sync_folder(const fs::path& folder) {
  int fd = ::open(folder.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0) io_error("cannot open", folder);
  int result = ::fsync(fd);
  ::close(fd);
  if (result != 0) io_error("cannot sync", folder);
}

// A lock file held while the object lives (flock: released with the descriptor).
class FileLock {
 public:
  FileLock(const fs::path& path, int operation) {
    fd_ = ::open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
    if (fd_ < 0) io_error("cannot open", path);
    while (::flock(fd_, operation) != 0) {
      if (errno != EINTR) io_error("cannot lock", path);
    }
  }
  ~FileLock() { ::close(fd_); }
  FileLock(const FileLock&) = delete;
  FileLock& operator=(const FileLock&) = delete;

 private:
  int fd_ = -1;
};

struct Manifest {
  uint64_t next_file = 1;
  std::vector<std::string> files;
};

std::string manifest_text(const Manifest& manifest) {
  std::string text = fmt::format("{}\nnext {}\n", kHeader, manifest.next_file);
  for (const std::string& file : manifest.files) text += "table " + file + "\n";
  return text + fmt::format("crc {:08x}\n", crc_of(text));
}

Manifest parse_manifest(const std::string& path, const std::string& text) {
  size_t crc_at = text.rfind("crc ");
  if (crc_at == std::string::npos || !text.starts_with(std::string(kHeader) + "\n")) {
    damaged(path, "its MANIFEST is not a tally manifest");
  }
  const std::string body = text.substr(0, crc_at);
  if (fmt::format("crc {:08x}\n", crc_of(body)) != text.substr(crc_at)) {
    damaged(path, "its MANIFEST's checksum does not match");
  }
  Manifest manifest;
  std::istringstream lines(body);
  std::string line;
  std::getline(lines, line);  // the header
  while (std::getline(lines, line)) {
    if (line.starts_with("next ")) {
      manifest.next_file = std::stoull(line.substr(5));
    } else if (line.starts_with("table ") && line.find('/') == std::string::npos) {
      manifest.files.push_back(line.substr(6));
    } else {
      damaged(path, "its MANIFEST has a line it does not know: " + line);
    }
  }
  return manifest;
}

}  // namespace

std::unique_ptr<DatabaseStore> DatabaseStore::open(const std::string& path) {
  std::unique_ptr<DatabaseStore> store(new DatabaseStore(path));
  std::error_code ec;
  const fs::path folder(path);
  if (!fs::exists(folder, ec)) {
    if (!fs::create_directories(folder, ec)) {
      throw Error(ErrorKind::Io,
                  fmt::format("cannot create the database {}: {}", path, ec.message()));
    }
  } else if (!fs::is_directory(folder, ec)) {
    throw Error(ErrorKind::Io, fmt::format("{} is not a tally database (a database is a "
                                           "folder; this is a file)",
                                           path));
  }
  if (!fs::exists(folder / kManifest, ec)) {
    for (const auto& entry : fs::directory_iterator(folder, ec)) {
      const std::string name = entry.path().filename().string();
      if (name != kWriterLock && name != kReadersLock) {
        throw Error(ErrorKind::Io, fmt::format("{} is not a tally database (it has no "
                                               "MANIFEST and holds other files)",
                                               path));
      }
    }
    store->take_writer_lock();
    store->commit();  // an empty database
  }
  store->load();
  return store;
}

DatabaseStore::~DatabaseStore() {
  if (writer_lock_ >= 0) ::close(writer_lock_);
}

void DatabaseStore::load() {
  FileLock reading(fs::path(path_) / kReadersLock, LOCK_SH);
  std::ifstream in(fs::path(path_) / kManifest, std::ios::binary);
  if (!in) io_error("cannot read the database", fs::path(path_) / kManifest);
  std::ostringstream text;
  text << in.rdbuf();
  Manifest manifest = parse_manifest(path_, text.str());
  next_file_ = manifest.next_file;
  tables_.clear();
  files_.clear();
  for (const std::string& file : manifest.files) {
    TablePtr table = read_table_file((fs::path(path_) / file).string());
    files_.emplace_back(table->schema.name, file);
    tables_.push_back(std::move(table));
  }
}

void DatabaseStore::take_writer_lock() {
  if (writer_lock_ >= 0) return;
  const fs::path lock = fs::path(path_) / kWriterLock;
  int fd = ::open(lock.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
  if (fd < 0) io_error("cannot open", lock);
  if (::flock(fd, LOCK_EX | LOCK_NB) != 0) {
    ::close(fd);
    throw Error(ErrorKind::Io,
                fmt::format("the database {} is being changed by another process; it can be "
                            "read, but not changed, until that process closes it",
                            path_));
  }
  writer_lock_ = fd;
}

void DatabaseStore::save_table(const Table& table) {
  take_writer_lock();
  const std::string file = fmt::format("{}.table", next_file_);
  write_table_file(table, (fs::path(path_) / file).string());
  auto previous = files_;
  std::erase_if(files_, [&](const auto& entry) { return entry.first == table.schema.name; });
  files_.emplace_back(table.schema.name, file);
  ++next_file_;
  try {
    commit();
  } catch (...) {
    files_ = std::move(previous);
    throw;
  }
}

void DatabaseStore::drop_table(const std::string& name) {
  take_writer_lock();
  auto previous = files_;
  std::erase_if(files_, [&](const auto& entry) { return entry.first == name; });
  try {
    commit();
  } catch (...) {
    files_ = std::move(previous);
    throw;
  }
}

void DatabaseStore::commit() {
  const fs::path folder(path_);
  Manifest manifest{next_file_, {}};
  for (const auto& [name, file] : files_) manifest.files.push_back(file);
  const fs::path temp = folder / fmt::format("{}.tmp-{}", kManifest, ::getpid());
  write_durable_file(temp.string(), manifest_text(manifest));
  if (::rename(temp.c_str(), (folder / kManifest).c_str()) != 0) {
    io_error("cannot commit", folder / kManifest);
  }
  sync_folder(folder);
  // Committed. What the manifest does not name (replaced tables, files of a writer that
  // died) goes, once no reader is between reading the manifest and its files.
  FileLock cleaning(folder / kReadersLock, LOCK_EX);
  std::set<std::string> keep{kManifest, kWriterLock, kReadersLock};
  for (const auto& [name, file] : files_) keep.insert(file);
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator(folder, ec)) {
    if (!keep.count(entry.path().filename().string())) fs::remove(entry.path(), ec);
  }
}

}  // namespace tally
