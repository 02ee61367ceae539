#include "runtime/session/file_tables.h"

#include <algorithm>
#include <set>

#include "compiler/bind/binder.h"
#include "runtime/load/csv_sniffer.h"

namespace tally {

namespace {

// The tables of `base` and the file's.
class FileTableCatalog : public Catalog {
 public:
  FileTableCatalog(const Catalog& base, const TableSchema& file) : base_(base), file_(file) {}
  const TableSchema* find_table(std::string_view name) const override {
    return file_.name == name ? &file_ : base_.find_table(name);
  }
  std::vector<std::string> table_names() const override {
    std::vector<std::string> names = base_.table_names();
    names.push_back(file_.name);
    return names;
  }

 private:
  const Catalog& base_;
  const TableSchema& file_;
};

// Runs `step`, giving its errors about the file the location of the path in the query.
template <class Step>
auto at_path(const ast::TableRef& ref, Step&& step) {
  try {
    return step();
  } catch (const Error& e) {
    if (e.location()) throw;
    throw Error(e.kind(), e.what(), ref.location);
  }
}

CsvHints hints_of(const ast::TableRef& ref) {
  CsvHints hints;
  // The transformer admits only these options, with checked values.
  if (auto header = ref.file_options.find("header"); header != ref.file_options.end()) {
    hints.header = header->second == "true";
  }
  if (auto delim = ref.file_options.find("delim"); delim != ref.file_options.end()) {
    hints.delimiter = delim->second.at(0);
  }
  return hints;
}

// The file's columns the query reads, ascending; the first when it reads none (COUNT(*)),
// so that the loaded table still has the file's row count.
std::vector<size_t> read_columns(const BoundSelect& query) {
  std::set<size_t> read;
  for (const ScanColumn& s : query.scan) read.insert(static_cast<size_t>(s.table_column));
  if (read.empty()) read.insert(0);
  return {read.begin(), read.end()};
}

}  // namespace

FileSelect bind_file_select(const ast::SelectStmt& stmt, const Catalog& base, int parameter_count,
                            const LoadControl& control, const SubqueryValues* subqueries) {
  const ast::TableRef& ref = *stmt.from;
  SniffedCsv sniffed = at_path(ref, [&] { return sniff_csv_file(ref.name, hints_of(ref)); });
  TableSchema whole{ref.name, std::move(sniffed.columns)};
  FileSelect out;
  out.query = bind_select(stmt, FileTableCatalog(base, whole), parameter_count, subqueries);
  // The loaded table holds the read columns alone, in file order; the scan follows them.
  std::vector<size_t> read = read_columns(out.query);
  TableSchema loaded{ref.name, {}};
  for (size_t c : read) loaded.columns.push_back(whole.columns[c]);
  for (ScanColumn& s : out.query.scan) {
    auto at = std::lower_bound(read.begin(), read.end(), static_cast<size_t>(s.table_column));
    s.table_column = static_cast<int>(at - read.begin());
  }
  CopyOptions options = sniffed.options;
  options.source_fields = read;
  options.file_fields = whole.columns.size();
  out.input = at_path(ref, [&] {
    return copy_into(*make_empty_table(loaded), ref.name, options, control, &out.stats);
  });
  return out;
}

}  // namespace tally
