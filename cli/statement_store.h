// Prepared statements saved by `tally prepare` for `tally exec` in later processes: one
// file per name in <cache directory>/statements/ (the directory of the kernel cache, see
// default_kernel_cache_directory). A file records what exec needs to rebuild the statement:
// its SQL, the data options its tables were generated with, and the parameter types that
// prepare inferred. Files are written atomically and carry a SHA-256 of their contents, so
// a corrupt or truncated file is reported and never used.
//
// Format (text; `sql` is followed by exactly that many bytes and a newline):
//
//   tally prepared statement v1
//   checksum <SHA-256 hex of everything after this line>
//   name <name>
//   tpch <scale factor>
//   orders <rows>
//   atable <rows>
//   zipf <exponent>
//   seed <seed>
//   parameters <count>
//   parameter <type>        (count lines, e.g. "DECIMAL(12,2)")
//   sql <bytes>
//   <the SQL text>
#pragma once

#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

#include "tools/data/generated_data.h"

namespace tally {

namespace fs = std::filesystem;

struct StoredStatement {
  std::string name;
  std::string sql;
  GeneratedData data;
  std::vector<std::string> parameter_types;  // Type::to_string() of each '?', in order
  bool operator==(const StoredStatement&) const = default;
};

inline constexpr std::string_view kStatementSuffix = ".tps";

// Throws Error(Catalog) unless `name` is identifier-like: a letter or '_', then letters,
// digits and '_', at most 64 characters (so it is always one plain file name).
void check_statement_name(const std::string& name);

std::string encode_statement(const StoredStatement& statement);
// Throws Error(Cache) naming the problem (bad header, checksum mismatch, missing field...).
StoredStatement decode_statement(std::string_view bytes);

class StatementStore {
 public:
  explicit StatementStore(fs::path directory) : directory_(std::move(directory)) {}
  // <default_kernel_cache_directory()>/statements; throws Error(Cache) when there is none.
  static StatementStore from_environment();

  const fs::path& directory() const { return directory_; }

  void save(const StoredStatement& statement) const;  // replaces one of the same name
  // Throws Error(Catalog) for an unknown name (with a did-you-mean) and Error(Cache) for a
  // file that cannot be read or fails its checks.
  StoredStatement load(const std::string& name) const;
  std::vector<std::string> names() const;  // sorted
  bool remove(const std::string& name) const;

 private:
  fs::path path_of(const std::string& name) const;

  fs::path directory_;
};

}  // namespace tally
