#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "compiler/common/date.h"
#include "compiler/common/error.h"
#include "runtime/load/copy_loader.h"
#include "tests/unit/support/table_compare.h"
#include "tools/data/paper_tables.h"
#include "tools/data/tbl_writer.h"
#include "tools/data/tpch_lineitem.h"

namespace tally {
namespace {

namespace fs = std::filesystem;

// A file in the temporary directory, removed when the test ends.
class TempFile {
 public:
  TempFile(const std::string& name, const std::string& contents = "")
      : path_(fs::temp_directory_path() / ("tally_copy_test_" + name)) {
    std::ofstream(path_, std::ios::binary) << contents;
  }
  ~TempFile() { fs::remove(path_); }
  std::string path() const { return path_.string(); }

 private:
  fs::path path_;
};

std::string string_at(const Column& c, size_t row) {
  return c.dictionary().at(static_cast<size_t>(c.get_int(row)));
}

TableSchema all_types_schema() {
  return {"t",
          {{"s", Type::smallint()},
           {"i", Type::integer()},
           {"b", Type::bigint()},
           {"r", Type::real()},
           {"d", Type::double_()},
           {"m", Type::decimal(10, 2)},
           {"w", Type::decimal(30, 4)},
           {"dt", Type::date()},
           {"v", Type::varchar(5)},
           {"c", Type::char_(3)},
           {"f", Type::boolean()}}};
}

TablePtr load(const TableSchema& schema, const std::string& name, const std::string& contents,
              const std::map<std::string, std::string>& options = {}) {
  TempFile file(name, contents);
  auto empty = make_empty_table(schema);
  return copy_into(*empty, file.path(), copy_options_from(options, file.path()));
}

// The message of the Error that `load` throws, checking its kind.
std::string load_error(const TableSchema& schema, const std::string& name,
                       const std::string& contents, ErrorKind kind,
                       const std::map<std::string, std::string>& options = {}) {
  try {
    load(schema, name, contents, options);
  } catch (const Error& e) {
    CHECK(e.kind() == kind);
    return e.what();
  }
  FAIL("no error");
  return "";
}

std::string temp_path(const std::string& name) {
  return (fs::temp_directory_path() / ("tally_copy_test_" + name)).string();
}

TEST_CASE("copy: .tbl with a trailing delimiter - every type") {
  auto table = load(all_types_schema(), "types.tbl",
                    "-32768|2147483647|-9223372036854775808|0.1|1e-300|1.005|"
                    "-12345678901234567890.12345|2024-02-29|abc   |ab |TRUE|\n"
                    "7|-1|42|-2.5|3|-1.005|0|1970-01-01|x|x|no|\n"
                    "|||||||||||\n");
  const Table& t = *table;
  REQUIRE(t.rows() == 3);
  CHECK(t.columns[0]->get_int(0) == -32768);
  CHECK(t.columns[1]->get_int(0) == 2147483647);
  CHECK(t.columns[2]->get_int(0) == std::numeric_limits<int64_t>::min());
  CHECK(t.columns[3]->get_double(0) == static_cast<double>(0.1f));
  CHECK(t.columns[4]->get_double(0) == 1e-300);
  CHECK(t.columns[5]->get_int(0) == 101);   // 1.005 rounds half away from zero
  CHECK(t.columns[5]->get_int(1) == -101);  // and so does -1.005
  // 12345678901234567890.12345 rounded to 4 decimals, half away from zero.
  int128 wide = -(static_cast<int128>(1234567890123456789LL) * 10 * 10000 + 1235);
  CHECK(t.columns[6]->get_wide(0) == wide);
  CHECK(t.columns[7]->get_int(0) == days_from_civil(2024, 2, 29));
  CHECK(t.columns[7]->get_int(1) == 0);
  CHECK(string_at(*t.columns[8], 0) == "abc  ");  // excess spaces cut to VARCHAR(5)
  CHECK(string_at(*t.columns[9], 0) == "ab");     // CHAR loses trailing spaces
  CHECK(t.columns[10]->get_int(0) == 1);
  CHECK(t.columns[10]->get_int(1) == 0);
  CHECK(t.columns[3]->get_double(1) == -2.5);
  CHECK(t.columns[4]->get_double(1) == 3);
  for (size_t c = 0; c < t.columns.size(); ++c) {
    CAPTURE(c);
    CHECK_FALSE(t.columns[c]->is_valid(2));  // empty field = NULL in .tbl
    CHECK(t.columns[c]->null_count() == 1);
  }
}

TEST_CASE("copy: CSV with quotes - a header and NULL text") {
  TableSchema schema{
      "people", {{"name", Type::varchar()}, {"age", Type::integer()}, {"note", Type::varchar()}}};
  auto table = load(schema, "people.txt",
                    "name,age,note\n"
                    "\"Smith, John\",42,\"said \"\"hi\"\"\"\n"
                    "NA,NA,\"\"\n"
                    "\"NA\",7,\"two\nlines\"\r\n"
                    "plain , 8 ,last",
                    {{"FORMAT", "csv"}, {"header", "true"}, {"Null", "NA"}});
  const Table& t = *table;
  REQUIRE(t.rows() == 4);
  CHECK(string_at(*t.columns[0], 0) == "Smith, John");
  CHECK(t.columns[1]->get_int(0) == 42);
  CHECK(string_at(*t.columns[2], 0) == "said \"hi\"");
  CHECK_FALSE(t.columns[0]->is_valid(1));  // unquoted NULL text is NULL
  CHECK_FALSE(t.columns[1]->is_valid(1));
  CHECK(string_at(*t.columns[2], 1) == "");    // a quoted empty string is not NULL
  CHECK(string_at(*t.columns[0], 2) == "NA");  // a quoted NULL text is not NULL
  CHECK(string_at(*t.columns[2], 2) == "two\nlines");
  CHECK(string_at(*t.columns[0], 3) == "plain ");  // strings keep their spaces
  CHECK(t.columns[1]->get_int(3) == 8);            // numbers do not mind them
  CHECK(string_at(*t.columns[2], 3) == "last");    // no line break at the end of file
}

TEST_CASE("copy: PostgreSQL text format with escapes and \\N") {
  TableSchema schema{"t", {{"a", Type::varchar()}, {"b", Type::integer()}}};
  auto table = load(schema, "escapes.txt", "tab\\there\t1\n\\N\t\\N\nback\\\\slash\t3\n\t4\n");
  const Table& t = *table;
  REQUIRE(t.rows() == 4);
  CHECK(string_at(*t.columns[0], 0) == "tab\there");
  CHECK_FALSE(t.columns[0]->is_valid(1));
  CHECK_FALSE(t.columns[1]->is_valid(1));
  CHECK(string_at(*t.columns[0], 2) == "back\\slash");
  CHECK(string_at(*t.columns[0], 3) == "");  // empty is not NULL in text format
}

TEST_CASE("copy: CRLF line endings - blank file - and appending to existing rows") {
  TableSchema schema{"t", {{"a", Type::integer()}, {"b", Type::char_(2)}}};
  auto table = load(schema, "crlf.tbl", "1|xy|\r\n2|z|\r\n");
  REQUIRE(table->rows() == 2);
  CHECK(string_at(*table->columns[1], 0) == "xy");
  CHECK(string_at(*table->columns[1], 1) == "z");

  TempFile empty("empty.tbl");
  auto same = copy_into(*table, empty.path(), copy_options_from({}, empty.path()));
  CHECK_FALSE(test::first_difference(*same, *table));

  TempFile more("more.tbl", "3|ab|\n");
  auto appended = copy_into(*table, more.path(), copy_options_from({}, more.path()));
  REQUIRE(appended->rows() == 3);
  CHECK(appended->columns[0]->get_int(0) == 1);
  CHECK(appended->columns[0]->get_int(2) == 3);
  CHECK(string_at(*appended->columns[1], 2) == "ab");
  CHECK(table->rows() == 2);  // the input table is untouched
}

TEST_CASE("copy: options and their defaults") {
  CopyOptions tbl = copy_options_from({}, "/data/lineitem.tbl");
  CHECK(tbl.delimiter == '|');
  CHECK(tbl.null_text == "");
  CHECK_FALSE(tbl.csv);
  CopyOptions csv = copy_options_from({}, "x.CSV");
  CHECK(csv.delimiter == ',');
  CHECK(csv.csv);
  CHECK(csv.null_text == "");
  CopyOptions text = copy_options_from({}, "x.dat");
  CHECK(text.delimiter == '\t');
  CHECK(text.null_text == "\\N");
  CHECK(text.backslash_escapes);
  CopyOptions forced = copy_options_from({{"format", "CSV"}, {"delimiter", ";"}}, "x.dat");
  CHECK(forced.csv);
  CHECK(forced.delimiter == ';');
  CHECK(copy_options_from({{"header", ""}}, "x.csv").header);
  CHECK_FALSE(copy_options_from({{"header", "off"}}, "x.csv").header);

  try {
    copy_options_from({{"foo", "1"}}, "x.csv");
    FAIL("no error");
  } catch (const Error& e) {
    CHECK(e.kind() == ErrorKind::Unsupported);
    CHECK(std::string(e.what()) == "COPY option \"foo\" is not supported");
  }
  CHECK_THROWS_AS(copy_options_from({{"delimiter", "ab"}}, "x.csv"), Error);
  CHECK_THROWS_AS(copy_options_from({{"format", "binary"}}, "x.csv"), Error);
  CHECK_THROWS_AS(copy_options_from({{"header", "maybe"}}, "x.csv"), Error);
}

TEST_CASE("copy: bad values name the file - line - column and value") {
  TableSchema schema{"lineitem",
                     {{"k", Type::integer(), true},
                      {"q", Type::decimal(15, 2)},
                      {"v", Type::varchar(3)},
                      {"s", Type::smallint()},
                      {"d", Type::date()}}};
  std::string path = temp_path("bad.tbl");
  auto at = [&](int line, int column, const char* name) {
    return "COPY lineitem: " + path + " line " + std::to_string(line) + ", column " +
           std::to_string(column) + " (" + name + "): ";
  };
  std::string good = "1|2.50|abc|7|1995-06-17|\n";
  CHECK(load_error(schema, "bad.tbl", good + good + "3|1x|a|1|1995-01-01|\n", ErrorKind::Data) ==
        at(3, 2, "q") + "invalid DECIMAL(15,2) value \"1x\"");
  CHECK(load_error(schema, "bad.tbl", "2147483648|1|a|1|1995-01-01|\n", ErrorKind::Data) ==
        at(1, 1, "k") + "INTEGER value \"2147483648\" out of range");
  CHECK(load_error(schema, "bad.tbl", good + "1|1|a|40000|1995-01-01|\n", ErrorKind::Data) ==
        at(2, 4, "s") + "SMALLINT value \"40000\" out of range");
  CHECK(load_error(schema, "bad.tbl", "1|10000000000000.00|a|1|1995-01-01|\n", ErrorKind::Data) ==
        at(1, 2, "q") + "DECIMAL(15,2) value \"10000000000000.00\" out of range");
  CHECK(load_error(schema, "bad.tbl", "1|1|abcd|1|1995-01-01|\n", ErrorKind::Data) ==
        at(1, 3, "v") + "value too long for VARCHAR(3): \"abcd\"");
  CHECK(load_error(schema, "bad.tbl", "1|1|a|1|1995-02-30|\n", ErrorKind::Data) ==
        at(1, 5, "d") + "invalid DATE value \"1995-02-30\"");
  CHECK(load_error(schema, "bad.tbl", good + "|1|a|1|1995-01-01|\n", ErrorKind::Data) ==
        at(2, 1, "k") + "NULL in a NOT NULL column");
  CHECK(load_error(schema, "bad.tbl", good + good + "1|2|3\n", ErrorKind::Data) ==
        "COPY lineitem: " + path + " line 3: expected 5 fields, found 3");
  CHECK(load_error(schema, "bad.tbl", "1|1|a|1|1995-01-01|x|\n", ErrorKind::Data) ==
        "COPY lineitem: " + path + " line 1: expected 5 fields, found 7");
}

TEST_CASE("copy: more bad values per type") {
  TableSchema schema{"t", {{"x", Type::integer()}}};
  for (const char* bad : {"", "1.5", "abc", "1 2", "0x10", "--1"}) {
    CAPTURE(bad);
    // Text format: an empty field is an empty string, not NULL.
    std::string message = load_error(schema, "x.txt", std::string(bad) + "\n", ErrorKind::Data);
    CHECK(message.find("invalid INTEGER value") != std::string::npos);
  }
  TableSchema types{"t", {{"f", Type::boolean()}, {"r", Type::real()}, {"d", Type::double_()}}};
  CHECK(load_error(types, "x.txt", "maybe\t1\t1\n", ErrorKind::Data).find("invalid BOOLEAN") !=
        std::string::npos);
  CHECK(load_error(types, "x.txt", "t\t1e99\t1\n", ErrorKind::Data)
            .find("REAL value \"1e99\" out of range") != std::string::npos);
  CHECK(load_error(types, "x.txt", "t\t1\t1.5x\n", ErrorKind::Data).find("invalid DOUBLE") !=
        std::string::npos);
  TableSchema text{"t", {{"a", Type::varchar()}, {"b", Type::varchar()}}};
  CHECK(load_error(text, "x.csv", "a,\"open\n", ErrorKind::Data)
            .find("line 1: unterminated quoted CSV field") != std::string::npos);
  CHECK(load_error(text, "x.csv", "a,\"b\"c\n", ErrorKind::Data)
            .find("line 1: unexpected character after a closing quote") != std::string::npos);
}

TEST_CASE("copy: line numbers stay exact across parallel pieces and quoted line breaks") {
  TableSchema schema{"t", {{"a", Type::integer()}, {"b", Type::varchar()}}};
  std::string text = "a,b\n";  // header: line 1
  int line = 1;
  for (int i = 0; i < 100000; ++i) {
    if (i % 1000 == 0) {
      text += std::to_string(i) + ",\"two\nlines\"\n";
      line += 2;
    } else {
      text += std::to_string(i) + ",x\n";
      line += 1;
    }
  }
  text += "oops,x\n";
  line += 1;
  text += "1,x\n";
  std::string message = load_error(schema, "lines.csv", text, ErrorKind::Data, {{"header", "on"}});
  CHECK(message == "COPY t: " + temp_path("lines.csv") + " line " + std::to_string(line) +
                       ", column 1 (a): invalid INTEGER value \"oops\"");
  // Without the bad line, every row arrives in order.
  std::string good = text.substr(0, text.find("oops"));
  auto table = load(schema, "lines.csv", good, {{"header", "on"}});
  REQUIRE(table->rows() == 100000);
  bool in_order = true;
  for (size_t row = 0; row < table->rows(); ++row) {
    in_order &= table->columns[0]->get_int(row) == static_cast<int64_t>(row);
  }
  CHECK(in_order);
  CHECK(string_at(*table->columns[1], 5000) == "two\nlines");
}

TEST_CASE("copy: a missing file is an I/O error and the table is unchanged") {
  TableSchema schema{"t", {{"a", Type::integer()}}};
  auto table = load(schema, "one.tbl", "5|\n");
  std::string path = temp_path("does_not_exist.tbl");
  try {
    copy_into(*table, path, copy_options_from({}, path));
    FAIL("no error");
  } catch (const Error& e) {
    CHECK(e.kind() == ErrorKind::Io);
    CHECK(std::string(e.what()).find(path) != std::string::npos);
    CHECK(std::string(e.what()).find("No such file or directory") != std::string::npos);
  }
  TempFile bad("bad_append.tbl", "6|\nx|\n");
  CHECK_THROWS_AS(copy_into(*table, bad.path(), copy_options_from({}, bad.path())), Error);
  REQUIRE(table->rows() == 1);
  CHECK(table->columns[0]->get_int(0) == 5);
}

TEST_CASE("copy: a line without an end stops at the line limit with its line number") {
  TableSchema schema{"t", {{"a", Type::integer()}}};
  auto table = load(schema, "before.tbl", "5|\n");
  try {
    copy_into(*table, "/dev/zero", copy_options_from({}, "/dev/zero"));
    FAIL("no error");
  } catch (const Error& e) {
    CHECK(e.kind() == ErrorKind::Data);
    CHECK(std::string(e.what()) ==
          "COPY t: /dev/zero line 1: the line is longer than the maximum line length (16 MiB)");
  }
  // Whole records before the long one are counted: the error names the line it starts on.
  std::string text = "1|\n2|\n" + std::string(kMaxLineBytes + 4096, '7');
  TempFile file("long_line.tbl", text);
  auto empty = make_empty_table(schema);
  try {
    copy_into(*empty, file.path(), copy_options_from({}, file.path()));
    FAIL("no error");
  } catch (const Error& e) {
    CHECK(std::string(e.what()).find(" line 3: the line is longer") != std::string::npos);
  }
  REQUIRE(table->rows() == 1);
}

TEST_CASE("copy: write_tbl then copy_into round-trips generated tables exactly") {
  for (auto source : {generate_lineitem(0.002, 3), generate_nulls_table(3000, 0.25, 4),
                      generate_orders_table(2000, 10, 5), generate_atable(2000, 100, 1.1, 6)}) {
    CAPTURE(source->schema.name);
    TempFile file(source->schema.name + ".tbl");
    write_tbl(*source, file.path());
    auto loaded = copy_into(*make_empty_table(source->schema), file.path(),
                            copy_options_from({}, file.path()));
    auto difference = test::first_difference(*source, *loaded);
    CHECK_MESSAGE(!difference, *difference);
  }
  // Other delimiter, no trailing delimiter, as CSV.
  auto nulls = generate_nulls_table(500, 0.3, 8);
  TempFile csv("nulls.csv");
  write_tbl(*nulls, csv.path(), ',', false);
  auto loaded =
      copy_into(*make_empty_table(nulls->schema), csv.path(), copy_options_from({}, csv.path()));
  CHECK_FALSE(test::first_difference(*nulls, *loaded));
}

TEST_CASE("copy: write_tbl formats every type") {
  TableSchema schema = all_types_schema();
  ColumnBuilder s(Type::smallint()), i(Type::integer()), b(Type::bigint()), r(Type::real()),
      d(Type::double_()), m(Type::decimal(10, 2)), w(Type::decimal(30, 4)), dt(Type::date()),
      v(Type::varchar(5)), c(Type::char_(3)), f(Type::boolean());
  s.append_int(-5), i.append_null(), b.append_int(1LL << 40), r.append_double(0.1),
      d.append_double(0.1), m.append_int(-5), w.append_wide(-(static_cast<int128>(1) << 90)),
      dt.append_int(days_from_civil(1995, 6, 17)), v.append_string("hi"), c.append_string("ab"),
      f.append_int(1);
  auto table = std::make_shared<Table>();
  table->schema = schema;
  for (auto* builder : {&s, &i, &b, &r, &d, &m, &w, &dt, &v, &c, &f}) {
    table->columns.push_back(builder->finish());
  }
  TempFile file("format.tbl");
  write_tbl(*table, file.path());
  std::ifstream in(file.path());
  std::string line;
  std::getline(in, line);
  CHECK(line ==
        "-5||1099511627776|0.1|0.1|-0.05|-123794003928538027489912.4224|1995-06-17|hi|ab|t|");

  ColumnBuilder bad(Type::varchar());
  bad.append_string("a|b");
  Table with_delimiter{{"x", {{"a", Type::varchar()}}}, {bad.finish()}};
  CHECK_THROWS_AS(write_tbl(with_delimiter, file.path()), Error);
  CHECK_THROWS_AS(write_tbl(*table, "/nonexistent_dir/x.tbl"), Error);
}

}  // namespace
}  // namespace tally
