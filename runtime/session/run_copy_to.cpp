// COPY t [(columns)] TO 'file' and COPY (SELECT ...) TO 'file': a query's rows written as
// CSV or PostgreSQL text format, with COPY FROM's options and defaults, so that the file
// reads back with COPY FROM as the same rows.
#include <fmt/format.h>

#include <cerrno>
#include <cstring>
#include <fstream>

#include "runtime/load/copy_loader.h"
#include "runtime/result/delimited_writer.h"
#include "runtime/session/database.h"

namespace tally {

namespace {

constexpr size_t kRowsPerWrite = 16384;

DelimitedFormat delimited_format(const CopyOptions& options) {
  DelimitedFormat format;
  format.delimiter = options.delimiter;
  format.null_text = options.null_text;
  if (options.csv) {
    format.escapes = DelimitedFormat::Escapes::Csv;
    format.quote_null_lookalike = true;
  } else {
    format.escapes = options.backslash_escapes ? DelimitedFormat::Escapes::Backslash
                                               : DelimitedFormat::Escapes::None;
  }
  return format;
}

// The result's columns named in `columns`, in that order (COPY t (b, a) TO ...).
Result project(Result all, const std::vector<std::string>& columns, const std::string& table) {
  if (columns.empty()) return all;
  Result projected;
  projected.strings = all.strings;
  std::vector<size_t> picks;
  for (const std::string& name : columns) {
    size_t c = 0;
    while (c < all.names.size() && all.names[c] != name) ++c;
    if (c == all.names.size()) {
      throw Error(ErrorKind::Binder,
                  fmt::format("column \"{}\" of table \"{}\" does not exist", name, table));
    }
    picks.push_back(c);
    projected.names.push_back(name);
    projected.types.push_back(all.types[c]);
  }
  projected.rows.reserve(all.rows.size());
  for (auto& row : all.rows) {
    std::vector<Value>& out = projected.rows.emplace_back();
    for (size_t c : picks) out.push_back(row[c]);
  }
  return projected;
}

void write_file(const Result& result, const std::string& path, const CopyOptions& options,
                const ExecOptions& exec) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  if (!out) {
    throw Error(ErrorKind::Io,
                fmt::format("COPY TO: cannot open {}: {}", path, std::strerror(errno)));
  }
  const DelimitedFormat format = delimited_format(options);
  if (options.header) out << delimited_header(result, format);
  for (size_t begin = 0; begin < result.rows.size() && out; begin += kRowsPerWrite) {
    if (exec.cancelled && exec.cancelled()) {
      throw Error(ErrorKind::Cancelled, fmt::format("COPY TO {} was cancelled", path));
    }
    out << delimited_rows(result, begin, std::min(result.rows.size(), begin + kRowsPerWrite),
                          format);
  }
  out.flush();
  if (!out) {
    throw Error(ErrorKind::Io,
                fmt::format("COPY TO: cannot write {}: {}", path, std::strerror(errno)));
  }
}

}  // namespace

StatementOutcome Database::run_copy_to(const ast::CopyToStmt& stmt, const ExecOptions& exec) {
  if (stmt.path.ends_with(".gz")) {
    throw Error(ErrorKind::Unsupported, "COPY TO does not write gzip files");
  }
  const CopyOptions options = copy_options_from(stmt.options, stmt.path);
  StatementOutcome query;
  if (stmt.query) {
    query = run_select(*stmt.query, 0, host_query_options(exec));
  } else {
    ast::SelectStmt all;
    all.items.push_back(ast::SelectItem{nullptr, true, "", {}});
    all.from = ast::TableRef{stmt.table, "", {}, false, {}};
    existing_table(stmt.table);  // the catalog's error for a missing table
    query = run_select(all, 0, host_query_options(exec));
    query.result = project(std::move(*query.result), stmt.columns, stmt.table);
  }
  write_file(*query.result, stmt.path, options, exec);
  StatementOutcome outcome = tagged(fmt::format("COPY {}", query.result->rows.size()));
  outcome.load = query.load;
  return outcome;
}

}  // namespace tally
