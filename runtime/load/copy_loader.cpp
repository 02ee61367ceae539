#include "runtime/load/copy_loader.h"

#include <fmt/format.h>

#include <algorithm>

#include "compiler/common/byte_size.h"
#include "compiler/common/error.h"
#include "runtime/load/block_reader.h"
#include "runtime/load/delimited_records.h"
#include "runtime/load/field_parser.h"
#include "runtime/load/load_meter.h"
#include "runtime/load/parallel.h"
#include "runtime/storage/host_memory.h"

namespace tally {

namespace {

// The file is read in blocks of whole records (runtime/load/block_reader.h); each block is
// split at record boundaries into one piece per thread, parsed into its own builders, and
// the pieces are encoded in file order at the end.

std::string statement_name(const CopyOptions& options, const TableSchema& schema) {
  return options.statement.empty() ? "COPY " + schema.name : options.statement;
}

std::string too_long_message() {
  return fmt::format("the line is longer than the maximum line length ({} MiB)",
                     kMaxLineBytes >> 20);
}

// Where a piece failed, relative to the piece.
struct PieceError {
  size_t line = 0;  // line breaks before the failing record, within the piece
  int column = -1;  // 0-based, or -1 for errors about the whole record
  std::string message;
};

struct Piece {
  std::vector<ColumnBuilder> columns;
  size_t lines = 0;  // line breaks in the piece
  size_t rows = 0;
  std::optional<PieceError> error;
  bool cancelled = false;
};

class CopyJob {
 public:
  CopyJob(const Table& table, const std::string& path, const CopyOptions& options, LoadMeter& meter)
      : schema_(table.schema),
        path_(path),
        options_(options),
        format_{options.delimiter, options.csv, options.backslash_escapes},
        meter_(meter) {}

  void parse_piece(const char* begin, const char* end, Piece& piece) const;
  // Parses the whole records of data[0, size); throws the first error in file order.
  void parse_block(const char* data, size_t size);
  // Skips the header record at the start of data; returns the bytes skipped.
  size_t skip_header(const char* data, size_t size);
  std::vector<std::vector<ColumnBuilder>>& parts() { return parts_; }
  size_t rows() const { return rows_; }
  [[noreturn]] void throw_cancelled() const {
    throw Error(ErrorKind::Cancelled,
                statement_name(options_, schema_) + " was cancelled; nothing was loaded");
  }
  // The record after those parsed is longer than kMaxLineBytes.
  [[noreturn]] void throw_too_long() const {
    throw_error(lines_before_ + 1, PieceError{0, -1, too_long_message()});
  }

 private:
  [[noreturn]] void throw_error(size_t line, const PieceError& error) const;
  // Appends a record's fields to `columns`; on an error sets `error` and returns the column
  // (-1: the whole record).
  int store_record(std::span<RawField> fields, std::vector<ColumnBuilder>& columns,
                   std::string& scratch, std::string& error) const;
  // The field of the record that table column `c` comes from.
  size_t field_of(size_t c) const {
    return options_.source_fields.empty() ? c : options_.source_fields[c];
  }

  const TableSchema& schema_;
  std::string path_;
  CopyOptions options_;
  RecordFormat format_;
  LoadMeter& meter_;
  size_t lines_before_ = 0;  // line breaks in the blocks already parsed
  size_t rows_ = 0;          // records parsed
  std::vector<std::vector<ColumnBuilder>> parts_;
};

void CopyJob::parse_piece(const char* begin, const char* end, Piece& piece) const {
  piece.columns = builders_for(schema_);
  RecordReader reader(format_, begin, end);
  std::string scratch, error;
  auto fail = [&](int column, std::string message) {
    piece.error = PieceError{reader.record_start_lines(), column, std::move(message)};
  };
  const char* metered = begin;  // parsed bytes up to here are counted
  for (const char* start = reader.position(); reader.next(error); start = reader.position()) {
    if (reader.position() - metered >= static_cast<ptrdiff_t>(LoadMeter::kStep)) {
      piece.cancelled = !meter_.advance(static_cast<uint64_t>(reader.position() - metered));
      if (piece.cancelled) return;
      metered = reader.position();
    }
    if (!error.empty()) return fail(-1, error);
    if (static_cast<size_t>(reader.position() - start) > kMaxLineBytes) {
      return fail(-1, too_long_message());
    }
    int column = store_record(reader.fields(), piece.columns, scratch, error);
    if (!error.empty()) return fail(column, error);
    ++piece.rows;
  }
  piece.lines = reader.lines();
  meter_.advance(static_cast<uint64_t>(end - metered));
}

int CopyJob::store_record(std::span<RawField> fields, std::vector<ColumnBuilder>& columns,
                          std::string& scratch, std::string& error) const {
  const size_t expected = options_.source_fields.empty() ? columns.size() : options_.file_fields;
  // A delimiter at the end of the line (TPC-H .tbl) adds one empty field.
  if (fields.size() == expected + 1 && fields.back().raw.empty() && !fields.back().quoted) {
    fields = fields.first(expected);
  }
  if (fields.size() != expected) {
    error = fmt::format("expected {} fields, found {}", expected, fields.size());
    return -1;
  }
  for (size_t c = 0; c < columns.size(); ++c) {
    const RawField& field = fields[field_of(c)];
    if (!field.quoted && field.raw == options_.null_text) {
      if (schema_.columns[c].not_null) {
        error = "NULL in a NOT NULL column";
        return static_cast<int>(c);
      }
      columns[c].append_null();
      continue;
    }
    std::string_view text = field_text(field, format_, scratch);
    if (!append_field(schema_.columns[c], text, columns[c], error)) return static_cast<int>(c);
  }
  return -1;
}

void CopyJob::throw_error(size_t line, const PieceError& error) const {
  std::string where =
      statement_name(options_, schema_) + ": " + path_ + " line " + std::to_string(line);
  if (error.column >= 0) {
    where += ", column " + std::to_string(field_of(static_cast<size_t>(error.column)) + 1) + " (" +
             schema_.columns[static_cast<size_t>(error.column)].name + ")";
  }
  throw Error(ErrorKind::Data, where + ": " + error.message);
}

size_t CopyJob::skip_header(const char* data, size_t size) {
  RecordReader reader(format_, data, data + size);
  std::string error;
  reader.next(error);
  lines_before_ += reader.lines();
  return static_cast<size_t>(reader.position() - data);
}

void CopyJob::parse_block(const char* data, size_t size) {
  size_t count = worker_threads();
  std::vector<size_t> bounds(count + 1, size);
  bounds[0] = 0;
  for (size_t t = 1; t < count; ++t) {
    bounds[t] = std::max(bounds[t - 1], record_start_from(data, size, size * t / count, format_));
  }
  std::vector<Piece> pieces(count);
  run_parallel(count,
               [&](size_t t) { parse_piece(data + bounds[t], data + bounds[t + 1], pieces[t]); });
  for (Piece& piece : pieces) {
    if (piece.cancelled) throw_cancelled();
    if (piece.error) throw_error(lines_before_ + piece.error->line + 1, *piece.error);
    lines_before_ += piece.lines;
    rows_ += piece.rows;
    parts_.push_back(std::move(piece.columns));
  }
}

}  // namespace

TablePtr copy_into(const Table& table, const std::string& path, const CopyOptions& options,
                   const LoadControl& control, LoadStats* stats) {
  BlockReader reader(statement_name(options, table.schema), path);
  const FileSource& source = reader.source();
  LoadMeter meter(control, source.file_bytes());
  CopyJob job(table, path, options, meter);
  RecordFormat format{options.delimiter, options.csv, options.backslash_escapes};
  // Parsed values take about as much memory as their text: refuse what cannot fit before
  // reading, rather than fail with std::bad_alloc halfway.
  require_host_memory(source.text_bytes_hint(),
                      fmt::format("{}: loading {} ({})", statement_name(options, table.schema),
                                  path, format_bytes(source.text_bytes_hint())));

  std::vector<ColumnBuilder> existing = builders_for(table.schema);
  for (size_t c = 0; c < table.columns.size(); ++c) append_column(existing[c], *table.columns[c]);
  job.parts().push_back(std::move(existing));

  bool first = true;
  uint64_t text_bytes = 0;
  for (std::string_view block = reader.next(format); !block.empty(); block = reader.next(format)) {
    if (meter.cancelled()) job.throw_cancelled();
    // Progress is of the file on disk: for gzip, so many compressed bytes per text byte.
    meter.set_file_bytes_read(source.file_bytes_read(), reader.text_bytes_read());
    size_t skipped = first && options.header ? job.skip_header(block.data(), block.size()) : 0;
    first = false;
    meter.advance(skipped);
    job.parse_block(block.data() + skipped, block.size() - skipped);
    text_bytes += block.size();
  }
  if (reader.too_long()) job.throw_too_long();
  if (meter.cancelled()) job.throw_cancelled();
  TablePtr loaded = join_parts(table.schema, std::move(job.parts()));
  if (stats) {
    *stats =
        LoadStats{job.rows(), text_bytes, source.file_bytes_read(), source.gzip(), meter.seconds()};
  }
  return loaded;
}

}  // namespace tally
