// A database on disk: a folder (`sales.tdb`) holding one table file per table
// (runtime/storage/table_file.h) and a MANIFEST naming them, so that tables persist between
// processes in the encodings the engines read, with nothing parsed again.
//
// Every change is crash-safe: the changed table goes to a new file (fsynced), then a new
// MANIFEST is written aside, fsynced and renamed over the old one (the commit), then the
// folder is fsynced and files no manifest names are removed. A process killed at any point
// leaves the old or the new database, never a mix. Files are checksummed, so damage on
// disk is reported, never read as data.
//
// Processes: any number may read a database at once; the first change a process makes
// takes the writer lock (LOCK), held until it closes the database, and another process
// trying to change it gets a clear error.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "runtime/storage/table.h"

namespace tally {

class DatabaseStore {
 public:
  // Opens the database at `path`, creating an empty one when nothing is there. Throws
  // Error(Io) when it cannot be read or created, Error(Data) when it is damaged.
  static std::unique_ptr<DatabaseStore> open(const std::string& path);
  ~DatabaseStore();
  DatabaseStore(const DatabaseStore&) = delete;
  DatabaseStore& operator=(const DatabaseStore&) = delete;

  const std::string& path() const { return path_; }
  // The tables as they were read at open.
  const std::vector<TablePtr>& tables() const { return tables_; }

  // Makes a new or replaced table durable, or a dropped one gone (see above).
  void save_table(const Table& table);
  void drop_table(const std::string& name);

 private:
  explicit DatabaseStore(std::string path) : path_(std::move(path)) {}
  void load();
  void take_writer_lock();
  void commit();  // writes the manifest of files_ and removes files it does not name

  std::string path_;
  std::vector<TablePtr> tables_;
  std::vector<std::pair<std::string, std::string>> files_;  // (table name, file name)
  uint64_t next_file_ = 1;
  int writer_lock_ = -1;  // fd holding the writer lock, once taken
};

}  // namespace tally
