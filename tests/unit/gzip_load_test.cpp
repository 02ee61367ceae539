// gzip files for COPY and files in FROM (runtime/load/file_source.h): inflated as they are
// read, sniffed on their text, and a damaged or cut file is a clear error, never a table.
#include <doctest/doctest.h>
#include <zlib.h>

#include <fstream>
#include <string>

#include "compiler/common/error.h"
#include "runtime/load/copy_loader.h"
#include "runtime/session/database.h"
#include "tests/unit/support/result_check.h"
#include "tests/unit/support/shell.h"

namespace tally {
namespace {

// Writes `text` gzip-compressed to `path`.
void write_gzip(const std::string& path, const std::string& text) {
  gzFile file = gzopen(path.c_str(), "wb");
  REQUIRE(file != nullptr);
  REQUIRE(gzwrite(file, text.data(), static_cast<unsigned>(text.size())) ==
          static_cast<int>(text.size()));
  REQUIRE(gzclose(file) == Z_OK);
}

// "region,amount" and `rows` rows: enough text that it takes several reads to inflate.
std::string sales_csv(int rows) {
  std::string text = "region,amount\n";
  for (int i = 0; i < rows; ++i) text += (i % 2 ? "east," : "west,") + std::to_string(i) + ".5\n";
  return text;
}

// The rows of `sql`'s result as "a|b" lines.
std::string rows_of(Database& db, const std::string& sql) {
  Result result = test::run_sql(db, sql);
  std::string out;
  for (size_t r = 0; r < result.rows.size(); ++r) {
    for (size_t c = 0; c < result.names.size(); ++c) out += (c ? "|" : "") + result.cell_text(r, c);
    out += "\n";
  }
  return out;
}

std::string error_of(Database& db, const std::string& sql, ErrorKind kind) {
  return test::error_from([&] { test::run_script(db, sql); }, kind);
}

TEST_CASE("gzip: COPY and FROM 'file.csv.gz' read what the plain file holds") {
  test::ScratchDir dir("tally_gzip");
  std::string plain = (dir.path() / "sales.csv").string();
  std::ofstream(plain) << sales_csv(300'000);
  write_gzip(plain + ".gz", sales_csv(300'000));
  Database db;
  const std::string query = "SELECT region, COUNT(*), SUM(amount) FROM '{}' GROUP BY 1 ORDER BY 1";
  auto over = [&](const std::string& path) {
    return rows_of(db, std::string(query).replace(query.find("{}"), 2, path));
  };
  CHECK(over(plain + ".gz") == over(plain));
  CHECK(over(plain + ".gz") == "east|150000|22500075000.0\nwest|150000|22499925000.0\n");
  test::run_script(db, "CREATE TABLE s (region VARCHAR, amount DECIMAL(9,1)); COPY s FROM '" +
                           plain + ".gz' (HEADER)");
  CHECK(rows_of(db, "SELECT COUNT(*), SUM(amount) FROM s") == "300000|45000000000.0\n");
}

TEST_CASE("gzip: found by its magic bytes - the name after .gz picks the format") {
  test::ScratchDir dir("tally_gzip");
  std::string tbl = (dir.path() / "t.tbl.gz").string(), odd = (dir.path() / "t.data").string();
  write_gzip(tbl, "1|x|\n2|y|\n");
  write_gzip(odd, "1\tx\n2\t\\N\n");  // no .gz: PostgreSQL text format, inflated all the same
  Database db;
  test::run_script(db, "CREATE TABLE t (a INTEGER, b VARCHAR); COPY t FROM '" + tbl +
                           "'; COPY t FROM '" + odd + "'");
  CHECK(rows_of(db, "SELECT a, COUNT(b) FROM t GROUP BY 1 ORDER BY 1") == "1|2\n2|1\n");
}

TEST_CASE("gzip: a damaged or cut file is a data error naming it - and loads nothing") {
  test::ScratchDir dir("tally_gzip");
  std::string good = (dir.path() / "good.csv.gz").string();
  write_gzip(good, sales_csv(200'000));
  std::string whole = test::slurp(good);
  std::string cut = (dir.path() / "cut.csv.gz").string();
  std::ofstream(cut, std::ios::binary) << whole.substr(0, whole.size() / 2);
  std::string damaged = (dir.path() / "damaged.csv.gz").string();
  std::string bytes = whole;
  for (size_t i = bytes.size() / 3; i < bytes.size() / 3 + 64; ++i)
    bytes[i] = static_cast<char>(~bytes[i]);
  std::ofstream(damaged, std::ios::binary) << bytes;
  Database db;
  test::run_script(
      db, "CREATE TABLE s (region VARCHAR, amount DECIMAL(9,1)); INSERT INTO s VALUES ('x', 1)");
  std::string message = error_of(db, "COPY s FROM '" + cut + "' (HEADER)", ErrorKind::Data);
  CHECK(message == "COPY s: " + cut +
                       " is not a readable gzip file: unexpected end of file; nothing was loaded");
  message = error_of(db, "COPY s FROM '" + damaged + "' (HEADER)", ErrorKind::Data);
  CHECK(message.starts_with("COPY s: " + damaged + " is not a readable gzip file: "));
  CHECK(rows_of(db, "SELECT COUNT(*) FROM s") == "1\n");
  message = error_of(db, "SELECT COUNT(*) FROM '" + cut + "'", ErrorKind::Data);
  CHECK(message.find(cut + " is not a readable gzip file") != std::string::npos);
}

TEST_CASE("gzip: the load's stats give the text and the compressed bytes") {
  test::ScratchDir dir("tally_gzip");
  std::string path = (dir.path() / "sales.csv.gz").string();
  std::string text = sales_csv(50'000);
  write_gzip(path, text);
  auto empty = make_empty_table({"s", {{"region", Type::varchar()}, {"amount", Type::double_()}}});
  LoadStats stats;
  CopyOptions options = copy_options_from({{"header", "true"}}, path);
  TablePtr loaded = copy_into(*empty, path, options, {}, &stats);
  CHECK(loaded->rows() == 50'000);
  CHECK(stats.rows == 50'000);
  CHECK(stats.gzip);
  CHECK(stats.text_bytes == text.size());
  CHECK(stats.file_bytes == test::slurp(path).size());
}

}  // namespace
}  // namespace tally
