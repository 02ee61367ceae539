// The mutation corpus: the SELECTs of the sqllogictest files (tests/sql, read with the
// runner's parser, tools/slt/parse.h) and of queries/*.sql, each with the context it runs
// in: the statements that built its tables. A .test file's SELECT runs after that file's
// earlier CREATE/INSERT statements; queries/*.sql run over the fuzz schema, which has
// small tables of the names they read (tools/fuzz/schema.h).
#pragma once

#include <string>
#include <vector>

namespace tally::fuzz {

// Where a statement runs: the fuzz schema (file empty), or the setup statements of a
// .test file that come before line `line`.
struct Context {
  std::string file;  // relative to the source directory, e.g. "tests/sql/groupby/having.test"
  int line = 0;
  bool operator==(const Context&) const = default;
};

struct CorpusEntry {
  std::string sql;
  Context context;
};

// Reads every *.test and *.sql file under `paths` (files or directories; sorted, so the
// corpus and the statements drawn from it are the same on every run). Paths are recorded
// relative to `source_dir` where they lie under it.
std::vector<CorpusEntry> load_corpus(const std::vector<std::string>& paths,
                                     const std::string& source_dir);

// A whole file's bytes. Throws Error(Io) when it cannot be read.
std::string read_text_file(const std::string& path);

// The statements a context runs before its statement: the fuzz schema, or the file's
// setup statements (CREATE, INSERT, DROP, COPY that must succeed) before `line`. Throws
// Error(Io) when the file cannot be read.
std::vector<std::string> context_setup(const Context& context, const std::string& source_dir);

}  // namespace tally::fuzz
