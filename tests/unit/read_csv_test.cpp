// Files in FROM: sniffing of delimiter, header and types (runtime/load/csv_sniffer.h), and
// queries over 'file.csv' and read_csv(...) end to end on the CPU engine.
#include <doctest/doctest.h>
#include <fmt/format.h>

#include <fstream>
#include <string>

#include "compiler/common/error.h"
#include "compiler/parse/parser.h"
#include "runtime/load/csv_sniffer.h"
#include "runtime/session/file_tables.h"
#include "tests/unit/support/result_check.h"
#include "tests/unit/support/shell.h"

namespace tally {
namespace {

using test::date_cell;
using test::decimal_cell;
using test::error_from;
using test::expect_rows;
using test::int_cell;
using test::null_cell;
using test::run_sql;
using test::text_cell;

SniffedCsv sniff(const std::string& text, const CsvHints& hints = {}) {
  return sniff_csv(text, "t.csv", hints);
}

std::vector<Type> types_of(const SniffedCsv& csv) {
  std::vector<Type> types;
  for (const auto& column : csv.columns) types.push_back(column.type);
  return types;
}

std::vector<std::string> names_of(const SniffedCsv& csv) {
  std::vector<std::string> names;
  for (const auto& column : csv.columns) names.push_back(column.name);
  return names;
}

// A scratch folder holding one CSV file.
struct CsvFile {
  explicit CsvFile(const std::string& contents, const std::string& name = "sales.csv")
      : path((dir.path() / name).string()) {
    std::ofstream(path, std::ios::binary) << contents;
  }
  test::ScratchDir dir{"tally_read_csv"};
  std::string path;
};

const ast::TableRef& from_of(const std::vector<ast::Statement>& statements) {
  return *std::get<ast::SelectStmt>(statements.at(0).body).from;
}

TEST_CASE("read_csv parsing: a path in FROM - read_csv with options - the stem as its name") {
  auto plain = parse_script("SELECT * FROM 'data/sales.2024.csv'");
  CHECK(from_of(plain).is_file);
  CHECK(from_of(plain).name == "data/sales.2024.csv");
  CHECK(from_of(plain).alias == "sales");
  auto call = parse_script("SELECT * FROM READ_CSV('x.csv', header => false, delim = ';') AS t");
  CHECK(from_of(call).is_file);
  CHECK(from_of(call).alias == "t");
  CHECK(from_of(call).file_options ==
        std::map<std::string, std::string>{{"header", "false"}, {"delim", ";"}});
  auto tab = parse_script("SELECT * FROM read_csv('x.tsv', sep => '\\t')");
  CHECK(from_of(tab).file_options.at("delim") == "\t");
  CHECK_FALSE(from_of(parse_script("SELECT * FROM t")).is_file);
  error_from([] { parse_script("SELECT * FROM read_csv('x.csv', delim => 'ab')"); },
             ErrorKind::Syntax);
  error_from([] { parse_script("SELECT * FROM read_csv('x.csv', header => 'yes')"); },
             ErrorKind::Syntax);
  error_from([] { parse_script("SELECT * FROM read_parquet('x.parquet')"); },
             ErrorKind::Unsupported);
}

TEST_CASE("read_csv sniffing: each type from the fields - the header from the first row") {
  SniffedCsv csv = sniff(
      "id,price,ratio,day,name,empty\n"
      "1,1.5,1e3,2024-01-02,x,\n"
      "22,10.25,2,2024-02-29,y,\n");
  CHECK(csv.options.header);
  CHECK(csv.options.delimiter == ',');
  CHECK(names_of(csv) == std::vector<std::string>{"id", "price", "ratio", "day", "name", "empty"});
  CHECK(types_of(csv) == std::vector<Type>{Type::bigint(), Type::decimal(4, 2), Type::double_(),
                                           Type::date(), Type::varchar(), Type::varchar()});
}

TEST_CASE("read_csv sniffing: header names are lower case - as unquoted names are") {
  CHECK(names_of(sniff("Region, Sales Amount,ID\nnorth,1,2\n")) ==
        std::vector<std::string>{"region", "sales amount", "id"});
}

TEST_CASE("read_csv sniffing: a later row widens BIGINT -> DECIMAL -> DOUBLE -> VARCHAR") {
  CHECK(types_of(sniff("1\n2.5\n")) == std::vector<Type>{Type::decimal(2, 1)});
  CHECK(types_of(sniff("1\n2.5\n3e2\n")) == std::vector<Type>{Type::double_()});
  CHECK(types_of(sniff("1\n2.5\nabc\n")) == std::vector<Type>{Type::varchar()});
  CHECK(types_of(sniff("2024-01-01\n7\n")) == std::vector<Type>{Type::varchar()});
  // Past BIGINT: DECIMAL up to 38 digits, DOUBLE beyond.
  CHECK(types_of(sniff("1\n12345678901234567890\n")) == std::vector<Type>{Type::decimal(20, 0)});
  CHECK(types_of(sniff("1\n" + std::string(39, '9') + "\n")) == std::vector<Type>{Type::double_()});
  // The largest scale and the most integer digits seen, wherever they are.
  CHECK(types_of(sniff("123.4\n0.125\n-7\n")) == std::vector<Type>{Type::decimal(6, 3)});
}

TEST_CASE("read_csv sniffing: no header gives column0 - column1 - ...") {
  SniffedCsv csv = sniff("1,2\n3,4\n");
  CHECK_FALSE(csv.options.header);
  CHECK(names_of(csv) == std::vector<std::string>{"column0", "column1"});
  CHECK(types_of(csv) == std::vector<Type>{Type::bigint(), Type::bigint()});
  // All text: a first row of distinct non-empty names is a header ...
  CHECK(sniff("name,city\nann,oslo\n").options.header);
  // ... unless the query says otherwise, and then the first row is data.
  SniffedCsv forced = sniff("name,city\nann,oslo\n", CsvHints{std::nullopt, false});
  CHECK_FALSE(forced.options.header);
  CHECK(names_of(forced) == std::vector<std::string>{"column0", "column1"});
  // A header-only file is a header over no rows.
  CHECK(sniff("region,amount\n").options.header);
  // Empty and repeated names get the column's position.
  CHECK(names_of(sniff("a,,a\n1,2,3\n")) == std::vector<std::string>{"a", "column1", "a_2"});
}

TEST_CASE("read_csv sniffing: comma - tab - pipe and semicolon delimiters") {
  // A comma inside a field does not make the comma the delimiter.
  for (char delimiter : {'\t', '|', ';'}) {
    std::string d(1, delimiter);
    SniffedCsv csv = sniff("a" + d + "b" + d + "c\n1" + d + "x,y" + d + "2.5\n");
    CAPTURE(delimiter);
    CHECK(csv.options.delimiter == delimiter);
    CHECK(names_of(csv) == std::vector<std::string>{"a", "b", "c"});
    CHECK(types_of(csv) == std::vector<Type>{Type::bigint(), Type::varchar(), Type::decimal(2, 1)});
  }
  SniffedCsv csv = sniff("a,b,c\n1,\"x;y\",2.5\n");
  CHECK(csv.options.delimiter == ',');
  CHECK(types_of(csv) == std::vector<Type>{Type::bigint(), Type::varchar(), Type::decimal(2, 1)});
  // The query's delimiter wins over the guess.
  CHECK(sniff("a;b\n1;2\n", CsvHints{',', std::nullopt}).columns.size() == 1);
}

TEST_CASE("read_csv errors: empty file - ragged row - missing file") {
  CHECK(error_from([] { sniff(" \n\n"); }, ErrorKind::Data) == "read_csv: t.csv is empty");
  CHECK(error_from([] { sniff("a,b\n1,2\n3,4,5\n"); }, ErrorKind::Data) ==
        "read_csv: t.csv line 3: expected 2 fields, found 3");
  Database db;
  std::string missing = "/nonexistent/tally/sales.csv";
  std::string message =
      error_from([&] { run_sql(db, "SELECT * FROM '" + missing + "'"); }, ErrorKind::Io);
  CHECK(message.find("read_csv: cannot open " + missing) == 0);
  try {
    run_sql(db, "SELECT *\nFROM '" + missing + "'");
  } catch (const Error& e) {
    REQUIRE(e.location());
    CHECK(e.location()->line == 2);
    CHECK(e.location()->column == 6);
  }
}

TEST_CASE("read_csv: a file without line ends is refused at the line limit") {
  Database db;
  std::string message = error_from(
      [&] { run_sql(db, "SELECT COUNT(*) FROM read_csv('/dev/zero')"); }, ErrorKind::Data);
  CHECK(message ==
        "read_csv: /dev/zero line 1: the line is longer than the maximum line length (16 MiB)");
}

TEST_CASE("read_csv: types guessed from the first 16 MiB are checked on every later value read") {
  // Integers fill the sample; a text value after it must fail the load, naming its line.
  std::string text = "n,m\n";
  size_t lines = 1;
  while (text.size() <= kMaxLineBytes + 100) {
    text += "12345678,1\n";
    ++lines;
  }
  text += "not a number,1\n";
  text += "1,2,3\n";
  CsvFile file(text);
  Database db;
  std::string message =
      error_from([&] { run_sql(db, "SELECT COUNT(*) FROM '" + file.path + "'"); }, ErrorKind::Data);
  CHECK(message.find(fmt::format("line {}, column 1 (n)", lines + 1)) != std::string::npos);
  // A query that does not read n does not check its values, but every record's fields are
  // still counted.
  message =
      error_from([&] { run_sql(db, "SELECT SUM(m) FROM '" + file.path + "'"); }, ErrorKind::Data);
  CHECK(message.find(fmt::format("line {}: expected 2 fields, found 3", lines + 2)) !=
        std::string::npos);
  std::string small = "n\n1\n2\nthree\n";
  CsvFile whole(small, "small.csv");
  expect_rows(run_sql(db, "SELECT COUNT(*) FROM '" + whole.path + "'"), {{int_cell(3)}});
}

TEST_CASE("read_csv: SELECT region - SUM(amount) FROM 'file.csv' GROUP BY 1 - exactly") {
  CsvFile file(
      "region,amount,sold\n"
      "east,10.50,2024-01-02\n"
      "west,3,2024-01-03\n"
      "east,0.25,\n"
      "north,,2024-01-05\n"
      "west,100.125,2024-01-06\n");
  Database db;
  Result r =
      run_sql(db, "SELECT region, SUM(amount) FROM '" + file.path + "' GROUP BY 1 ORDER BY 1");
  CHECK(r.names == std::vector<std::string>{"region", "SUM(amount)"});
  expect_rows(r, {{text_cell("east"), decimal_cell(10750, 3)},
                  {text_cell("north"), null_cell()},
                  {text_cell("west"), decimal_cell(103125, 3)}});
  // NULLs: the empty amount and the empty date.
  expect_rows(run_sql(db, "SELECT COUNT(amount), COUNT(sold), COUNT(*) FROM '" + file.path + "'"),
              {{int_cell(4), int_cell(4), int_cell(5)}});
  // The file is named by its stem; the load leaves no table behind.
  expect_rows(run_sql(db, "SELECT COUNT(*) FROM '" + file.path + "' WHERE sales.amount > 5"),
              {{int_cell(2)}});
  CHECK(db.table_names().empty());
}

TEST_CASE("read_csv: a query loads only the columns it reads") {
  CsvFile file(
      "a,b,c,d\n"
      "1,x,2.5,2024-01-01\n"
      "2,y,3.5,2024-01-02\n"
      "3,x,4.5,2024-01-03\n");
  Database db;
  auto loaded_columns = [&](const std::string& sql) {
    auto statements = parse_script(sql);
    const auto& select = std::get<ast::SelectStmt>(statements.at(0).body);
    FileSelect file_select = bind_file_select(select, db, 0, {});
    std::vector<std::string> names;
    for (const auto& column : file_select.input->schema.columns) names.push_back(column.name);
    CHECK(file_select.input->rows() == 3);
    return names;
  };
  const std::string query = "SELECT d, SUM(c) FROM '" + file.path + "' WHERE a > 1 GROUP BY d";
  CHECK(loaded_columns(query) == std::vector<std::string>{"a", "c", "d"});
  expect_rows(run_sql(db, query + " ORDER BY d"),
              {{date_cell(test::days_since_epoch(2024, 1, 2)), decimal_cell(35, 1)},
               {date_cell(test::days_since_epoch(2024, 1, 3)), decimal_cell(45, 1)}});
  // No column read: the first one is loaded, for the row count.
  CHECK(loaded_columns("SELECT COUNT(*) FROM '" + file.path + "'") ==
        std::vector<std::string>{"a"});
  CHECK(loaded_columns("SELECT * FROM '" + file.path + "'") ==
        std::vector<std::string>{"a", "b", "c", "d"});
}

TEST_CASE("read_csv: options header and delim - in => and = spellings") {
  CsvFile file("1|east|2\n2|west|3\n", "data.tbl");
  Database db;
  expect_rows(run_sql(db, "SELECT SUM(column2) FROM read_csv('" + file.path +
                              "', header => false, delim => '|')"),
              {{decimal_cell(5, 0)}});  // the sniffed BIGINT sums to DECIMAL(38,0)
  expect_rows(run_sql(db, "SELECT COUNT(*) FROM read_csv('" + file.path + "', header = true) d"),
              {{int_cell(1)}});
  std::string message =
      error_from([&] { run_sql(db, "SELECT * FROM read_csv('" + file.path + "', quote => 'x')"); },
                 ErrorKind::Unsupported);
  CHECK(message.find("read_csv option 'quote' is not supported") == 0);
}

TEST_CASE("read_csv: CREATE TABLE AS SELECT * FROM 'file.csv' keeps the sniffed types") {
  CsvFile file("region,amount\neast,1.5\nwest,2\n");
  Database db;
  test::run_script(db, "CREATE TABLE s AS SELECT * FROM '" + file.path + "'");
  const TableSchema* schema = db.find_table("s");
  REQUIRE(schema != nullptr);
  CHECK(schema->columns[1].type == Type::decimal(2, 1));
  expect_rows(run_sql(db, "SELECT SUM(amount) FROM s WHERE region = 'west'"),
              {{decimal_cell(20, 1)}});
  // A file in FROM cannot be prepared; the table made from it can.
  error_from([&] { db.prepare("SELECT * FROM '" + file.path + "'"); }, ErrorKind::Unsupported);
  CHECK(db.prepare("SELECT COUNT(*) FROM s") != nullptr);
}

}  // namespace
}  // namespace tally
