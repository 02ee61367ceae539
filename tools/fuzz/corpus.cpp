#include "tools/fuzz/corpus.h"

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "compiler/common/error.h"
#include "tools/fuzz/schema.h"
#include "tools/slt/parse.h"

namespace tally::fuzz {

namespace fs = std::filesystem;

namespace {

std::string upper_start(const std::string& sql) {
  size_t i = 0;
  while (i < sql.size() && std::isspace(static_cast<unsigned char>(sql[i]))) ++i;
  std::string head = sql.substr(i, 8);
  for (auto& c : head) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return head;
}

bool is_query_text(const std::string& sql) {
  std::string head = upper_start(sql);
  return head.starts_with("SELECT") || head.starts_with("WITH");
}

// A statement that builds tables: it must succeed for the file's queries to mean anything.
bool is_setup(const slt::Record& record) {
  return record.kind == slt::RecordKind::StatementOk && !is_query_text(record.sql) &&
         slt::applies_to(record, "cpu");
}

std::string relative_to(const fs::path& path, const std::string& source_dir) {
  std::error_code ec;
  fs::path rel = fs::relative(fs::absolute(path), fs::absolute(source_dir), ec);
  if (ec || rel.empty() || rel.native().starts_with("..")) return path.string();
  return rel.string();
}

std::vector<fs::path> corpus_files(const std::vector<std::string>& paths) {
  std::vector<fs::path> files;
  for (const auto& p : paths) {
    if (fs::is_regular_file(p)) {
      files.emplace_back(p);
      continue;
    }
    if (!fs::is_directory(p)) throw Error(ErrorKind::Io, "corpus path not found: " + p);
    for (const auto& entry : fs::recursive_directory_iterator(p)) {
      auto ext = entry.path().extension();
      if (entry.is_regular_file() && (ext == ".test" || ext == ".sql"))
        files.push_back(entry.path());
    }
  }
  std::sort(files.begin(), files.end());
  return files;
}

// A queries/*.sql file is one SELECT over the tables its header names; scripts that build
// their own tables (CREATE, COPY) would change the shared fuzz schema, so they are left out.
void add_sql_file(const fs::path& path, std::vector<CorpusEntry>& out) {
  std::string text = read_text_file(path.string());
  std::string upper = text;
  for (auto& c : upper) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  if (upper.find("CREATE") != std::string::npos || upper.find("COPY") != std::string::npos) return;
  out.push_back({text, Context{}});
}

void add_test_file(const fs::path& path, const std::string& rel, std::vector<CorpusEntry>& out) {
  slt::TestFile file = slt::load_test_file(path.string());
  for (const auto& record : file.records) {
    if (record.kind == slt::RecordKind::Halt) break;
    if (is_query_text(record.sql)) out.push_back({record.sql, Context{rel, record.line}});
  }
}

}  // namespace

std::string read_text_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw Error(ErrorKind::Io, "cannot read " + path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

std::vector<CorpusEntry> load_corpus(const std::vector<std::string>& paths,
                                     const std::string& source_dir) {
  std::vector<CorpusEntry> entries;
  for (const auto& path : corpus_files(paths)) {
    if (path.extension() == ".sql") {
      add_sql_file(path, entries);
    } else {
      add_test_file(path, relative_to(path, source_dir), entries);
    }
  }
  return entries;
}

std::vector<std::string> context_setup(const Context& context, const std::string& source_dir) {
  if (context.file.empty()) return fuzz_schema_statements();
  fs::path path = fs::path(context.file).is_absolute() ? fs::path(context.file)
                                                       : fs::path(source_dir) / context.file;
  slt::TestFile file = slt::load_test_file(path.string());
  std::vector<std::string> setup;
  for (const auto& record : file.records) {
    if (record.line >= context.line || record.kind == slt::RecordKind::Halt) break;
    if (is_setup(record)) setup.push_back(record.sql);
  }
  return setup;
}

}  // namespace tally::fuzz
