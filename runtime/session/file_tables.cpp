#include "runtime/session/file_tables.h"

#include "runtime/load/csv_sniffer.h"

namespace tally {

TablePtr load_file_table(const ast::TableRef& ref, const LoadControl& control, LoadStats* stats) {
  CsvHints hints;
  // The transformer admits only these options, with checked values.
  if (auto header = ref.file_options.find("header"); header != ref.file_options.end()) {
    hints.header = header->second == "true";
  }
  if (auto delim = ref.file_options.find("delim"); delim != ref.file_options.end()) {
    hints.delimiter = delim->second.at(0);
  }
  try {
    return load_csv_file(ref.name, hints, ref.name, control, stats);
  } catch (const Error& e) {
    if (e.location()) throw;
    throw Error(e.kind(), e.what(), ref.location);
  }
}

const TableSchema* FileTableCatalog::find_table(std::string_view name) const {
  if (file_ && file_->schema.name == name) return &file_->schema;
  return base_.find_table(name);
}

std::vector<std::string> FileTableCatalog::table_names() const {
  std::vector<std::string> names = base_.table_names();
  if (file_) names.push_back(file_->schema.name);
  return names;
}

}  // namespace tally
