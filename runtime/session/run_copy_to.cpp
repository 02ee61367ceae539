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
#include "runtime/session/target_columns.h"

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

// Columns `picks` of `all` (COPY t (b, a) TO ...: SELECT * gives the table's columns).
Result project(Result all, const std::vector<int>& picks) {
  Result projected;
  projected.strings = all.strings;
  for (int c : picks) {
    projected.names.push_back(all.names[c]);
    projected.types.push_back(all.types[c]);
  }
  projected.rows = all.rows.columns({picks.begin(), picks.end()});
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
    all.from.emplace();
    all.from->name = stmt.table;
    const std::vector<int> picks = target_columns(stmt.columns, existing_table(stmt.table)->schema);
    query = run_select(all, 0, host_query_options(exec));
    if (!stmt.columns.empty()) query.result = project(std::move(*query.result), picks);
  }
  write_file(*query.result, stmt.path, options, exec);
  StatementOutcome outcome = tagged(fmt::format("COPY {}", query.result->rows.size()));
  outcome.load = query.load;
  return outcome;
}

}  // namespace tally
