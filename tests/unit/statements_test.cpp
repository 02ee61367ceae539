// Issue 18's statements: how SET/RESET/SHOW, COPY ... TO, COPY (columns) FROM, INSERT ...
// SELECT, DESCRIBE, EXPLAIN and the refused statements parse; the session settings over
// the caller's options; the delimited writer's quoting. The SQL results are in
// tests/sql/statements/.
#include <doctest/doctest.h>

#include <string>
#include <variant>

#include "compiler/common/decimal.h"
#include "compiler/parse/parser.h"
#include "runtime/result/delimited_writer.h"
#include "runtime/session/database.h"
#include "runtime/session/settings.h"
#include "tally/tally.h"

namespace tally {
namespace {

template <typename Body>
Body parse_body(const std::string& sql) {
  std::vector<ast::Statement> statements = parse_script(sql);
  REQUIRE(statements.size() == 1);
  REQUIRE(std::holds_alternative<Body>(statements[0].body));
  return std::move(std::get<Body>(statements[0].body));
}

Error error_of(const std::string& sql) {
  try {
    parse_script(sql);
  } catch (const Error& e) {
    return e;
  }
  FAIL("no error for " << sql);
  return Error(ErrorKind::Internal, "");
}

}  // namespace

TEST_CASE("statements parse: SET with = or TO and a value of any spelling") {
  auto set = parse_body<ast::SetStmt>("SET Threads = 4");
  CHECK(set.name == "threads");
  CHECK(set.value == "4");
  CHECK_FALSE(set.reset);
  CHECK(parse_body<ast::SetStmt>("set device to 'GPU'").value == "GPU");
  CHECK(parse_body<ast::SetStmt>("SET device TO Cpu").value == "cpu");  // a name: lower case
  CHECK(parse_body<ast::SetStmt>("SET x = -3").value == "-3");
  CHECK(parse_body<ast::SetStmt>("SET x = on").value == "true");
  CHECK(parse_body<ast::SetStmt>("SET x = FALSE").value == "false");
  CHECK(parse_body<ast::SetStmt>("SET SESSION x = 1").name == "x");
  CHECK(parse_body<ast::SetStmt>("SET GLOBAL x = 1").name == "x");
  auto to_default = parse_body<ast::SetStmt>("SET threads = DEFAULT");
  CHECK(to_default.reset);
  CHECK(to_default.name == "threads");
  // A quoted "default" is a value like any other.
  CHECK_FALSE(parse_body<ast::SetStmt>("SET device = 'default'").reset);
  auto set_at = parse_body<ast::SetStmt>("SET  threads = 'x'");
  CHECK(set_at.location.column == 6);
  CHECK(set_at.value_location.column == 16);
  CHECK(error_of("SET LOCAL threads = 1").kind() == ErrorKind::Syntax);
}

TEST_CASE("statements parse: RESET - SHOW - DESCRIBE and EXPLAIN") {
  auto reset = parse_body<ast::SetStmt>("RESET threads");
  CHECK(reset.reset);
  CHECK_FALSE(reset.all);
  CHECK(reset.name == "threads");
  CHECK(parse_body<ast::SetStmt>("RESET ALL").all);
  CHECK(parse_body<ast::ShowStmt>("SHOW TABLES").what == ast::ShowStmt::What::Tables);
  CHECK(parse_body<ast::ShowStmt>("show all").what == ast::ShowStmt::What::AllSettings);
  auto show = parse_body<ast::ShowStmt>("SHOW Device");
  CHECK(show.what == ast::ShowStmt::What::Setting);
  CHECK(show.name == "device");
  CHECK(parse_body<ast::DescribeStmt>("DESCRIBE \"My T\"").table == "My T");
  auto explain = parse_body<ast::ExplainStmt>("EXPLAIN SELECT a FROM t WHERE b > 1");
  CHECK(explain.select.from->name == "t");
  CHECK(explain.select.where != nullptr);
}

TEST_CASE("statements parse: COPY TO a table or its columns or a query - and COPY FROM columns") {
  auto table = parse_body<ast::CopyToStmt>("COPY t TO 'out.csv' (HEADER, DELIMITER ';')");
  CHECK(table.table == "t");
  CHECK(table.columns.empty());
  CHECK_FALSE(table.query.has_value());
  CHECK(table.path == "out.csv");
  CHECK(table.options.at("header") == "true");
  CHECK(table.options.at("delimiter") == ";");
  auto columns = parse_body<ast::CopyToStmt>("COPY t (b, a) TO 'f'");
  CHECK(columns.columns == std::vector<std::string>{"b", "a"});
  auto query = parse_body<ast::CopyToStmt>("COPY (SELECT a FROM t) TO 'f' WITH (FORMAT csv)");
  REQUIRE(query.query.has_value());
  CHECK(query.query->from->name == "t");
  CHECK(query.options.at("format") == "csv");
  auto from = parse_body<ast::CopyStmt>("COPY t (c, a) FROM 'f.csv' (HEADER)");
  CHECK(from.columns == std::vector<std::string>{"c", "a"});
  CHECK(from.path == "f.csv");
  CHECK(parse_body<ast::CopyStmt>("COPY t FROM 'f'").columns.empty());
}

TEST_CASE("statements parse: INSERT INTO t [(columns)] SELECT") {
  auto insert = parse_body<ast::InsertStmt>("INSERT INTO t (b, a) SELECT x, y FROM u");
  CHECK(insert.columns == std::vector<std::string>{"b", "a"});
  REQUIRE(insert.select.has_value());
  CHECK(insert.select->items.size() == 2);
  CHECK(insert.rows.empty());
  auto values = parse_body<ast::InsertStmt>("INSERT INTO t VALUES (1)");
  CHECK_FALSE(values.select.has_value());
  CHECK(values.rows.size() == 1);
}

TEST_CASE("statements parse: refused statements are named with their line and column") {
  Error update = error_of("SELECT 1;\n  UPDATE t SET a = 1");
  CHECK(update.kind() == ErrorKind::Unsupported);
  CHECK(std::string(update.what()).starts_with("UPDATE is not supported (line 2, column 3)"));
  REQUIRE(update.location().has_value());
  CHECK(update.location()->line == 2);
  CHECK(update.location()->column == 3);
  CHECK(std::string(error_of("create materialized view v as select 1").what())
            .starts_with("CREATE MATERIALIZED VIEW is not supported"));
  CHECK(std::string(error_of("DROP INDEX i").what()).starts_with("DROP INDEX is not supported"));
  CHECK(std::string(error_of("ALTER TABLE t RENAME TO u").what())
            .starts_with("ALTER TABLE is not supported"));
  // Not a statement keyword: still the parser's syntax error.
  CHECK(error_of("UPDAT t").kind() == ErrorKind::Syntax);
  // DROP TABLE and CREATE TABLE are no refused statements: misspelt, they are syntax errors.
  CHECK(error_of("DROP TABLE").kind() == ErrorKind::Syntax);
  Error create = error_of("CREATE t (a INTEGER)");
  CHECK(create.kind() == ErrorKind::Syntax);
  CHECK(std::string(create.what()).find("unexpected 't' (expected TABLE)") != std::string::npos);
  // Where a statement starts, the syntax error lists the statements tally runs.
  CHECK(std::string(error_of("SELEC 1").what()).find("expected a statement: SELECT, WITH") !=
        std::string::npos);
}

TEST_CASE("settings: SET overrides the caller's option and RESET gives it back") {
  SessionSettings settings;
  ExecOptions caller;
  caller.device = DeviceChoice::Gpu;
  caller.cpu_threads = 6;
  settings.set("device", "CPU", {}, {});
  settings.set("threads", "2", {}, {});
  settings.set("device_memory_limit", "1GiB", {}, {});
  ExecOptions effective = settings.apply(caller);
  CHECK(effective.device == DeviceChoice::Cpu);
  CHECK(effective.cpu_threads == 2);
  CHECK(effective.device_memory_limit == (uint64_t{1} << 30));
  CHECK(settings.show("device", caller, {}) == "cpu");
  CHECK(settings.show("device_memory_limit", caller, {}) == "1.0 GiB");
  settings.reset("device", {});
  CHECK(settings.apply(caller).device == DeviceChoice::Gpu);
  CHECK(settings.show("threads", caller, {}) == "2");
  settings.reset_all();
  CHECK(settings.apply(caller).cpu_threads == 6);
  CHECK(settings.show_all(caller).size() == SessionSettings::names().size());
}

TEST_CASE("settings: unknown names list the known ones and bad values change nothing") {
  SessionSettings settings;
  try {
    settings.set("treads", "2", {1, 5}, {1, 14});
    FAIL("no error");
  } catch (const Error& e) {
    CHECK(e.kind() == ErrorKind::Binder);
    CHECK(std::string(e.what()).find("did you mean \"threads\"") != std::string::npos);
    CHECK(std::string(e.what()).find("device_memory_limit") != std::string::npos);
    CHECK(e.location()->column == 5);
  }
  settings.set("threads", "3", {}, {});
  for (const char* bad : {"", "x", "-1", "4097", "1.5", "99999999999999999999"}) {
    CHECK_THROWS_AS(settings.set("threads", bad, {}, {}), Error);
  }
  CHECK_THROWS_AS(settings.set("devices", ",1", {}, {}), Error);
  CHECK_THROWS_AS(settings.set("devices", "1,", {}, {}), Error);
  CHECK_THROWS_AS(settings.set("strategy", "sort", {}, {}), Error);
  CHECK_THROWS_AS(settings.set("cpu_path", "simd", {}, {}), Error);
  CHECK_THROWS_AS(settings.reset("nope", {}), Error);
  CHECK(settings.show("threads", ExecOptions{}, {}) == "3");
  settings.set("devices", "ALL", {}, {});
  CHECK(settings.apply(ExecOptions{}).devices == "all");
  settings.set("worker_threads", "5", {}, {});  // DuckDB's name for it
  CHECK(settings.apply(ExecOptions{}).cpu_threads == 5);
}

TEST_CASE("settings: the library and the shell keep SET values across calls") {
  Engine engine(EngineOptions{Device::Cpu});
  CHECK(engine.execute("SHOW device").get_text(0, 0) == "cpu");
  engine.execute("SET threads = 2; SET device = 'auto'");
  CHECK(engine.execute("SHOW threads").get_text(0, 0) == "2");
  CHECK(engine.execute("SHOW device").get_text(0, 0) == "auto");
  engine.execute("RESET ALL");
  CHECK(engine.execute("SHOW device").get_text(0, 0) == "cpu");
  CHECK(engine.execute("SHOW threads").get_text(0, 0) == "0");

  Database db;
  ExecOptions shell;
  shell.device = DeviceChoice::Auto;
  db.execute_script("SET device = cpu", shell, [](const StatementOutcome&) {});
  std::string shown;
  auto show = [&](const StatementOutcome& o) { shown = o.result->cell_text(0, 0); };
  db.execute_script("SHOW device", shell, show);
  CHECK(shown == "cpu");
  db.reset_setting("device");  // .device in the shell
  db.execute_script("SHOW device", shell, show);
  CHECK(shown == "auto");
}

TEST_CASE("catalog statements: DESCRIBE - SHOW TABLES and EXPLAIN through the library") {
  Engine engine(EngineOptions{Device::Cpu});
  engine.execute("CREATE TABLE t (a INTEGER NOT NULL, b VARCHAR(4)); CREATE TABLE u (x DATE)");
  ResultSet describe = engine.execute("DESCRIBE t");
  CHECK(describe.column(0).name == "column_name");
  CHECK(describe.column(1).name == "column_type");
  CHECK(describe.column(2).name == "null");
  REQUIRE(describe.row_count() == 2);
  CHECK(describe.get_text(0, 1) == "INTEGER");
  CHECK(describe.get_text(0, 2) == "NO");
  CHECK(describe.get_text(1, 1) == "VARCHAR(4)");
  ResultSet tables = engine.execute("SHOW TABLES");
  REQUIRE(tables.row_count() == 2);
  CHECK(tables.get_text(1, 0) == "u");
  // The plan --explain prints: the table first, then scan, keys, aggregates, outputs.
  ResultSet plan = engine.execute("EXPLAIN SELECT b, SUM(a) FROM t GROUP BY b");
  CHECK(plan.column(0).name == "QUERY PLAN");
  REQUIRE(plan.row_count() > 3);
  CHECK(plan.get_text(0, 0) == "table: t");
  CHECK(plan.tag() == "EXPLAIN");
}

TEST_CASE("delimited writer: CSV quoting - NULL lookalikes and text-format escapes") {
  Result r =
      text_result({"a b", "c,d"}, {{"plain", ""}, {"x\"y", "line\nbreak"}, {"t\tab", "\\N"}});
  r.rows.push_back({Value(), Value()});  // a row of NULLs
  DelimitedFormat cli{',', DelimitedFormat::Escapes::Csv, "", false};
  CHECK(delimited_header(r, cli) == "a b,\"c,d\"\n");
  CHECK(delimited_rows(r, 0, 4, cli) == "plain,\n\"x\"\"y\",\"line\nbreak\"\nt\tab,\\N\n,\n");
  DelimitedFormat copy_csv{';', DelimitedFormat::Escapes::Csv, "", true};
  CHECK(delimited_rows(r, 0, 1, copy_csv) == "plain;\"\"\n");  // '' is not NULL
  CHECK(delimited_rows(r, 3, 4, copy_csv) == ";\n");
  DelimitedFormat text{'\t', DelimitedFormat::Escapes::Backslash, "\\N", false};
  CHECK(delimited_rows(r, 1, 4, text) == "x\"y\tline\\nbreak\nt\\tab\t\\\\N\n\\N\t\\N\n");
  DelimitedFormat pipes{'|', DelimitedFormat::Escapes::None, "", false};
  CHECK(delimited_rows(r, 2, 3, pipes) == "t\tab|\\N\n");
}

// Integers and DECIMALs, narrow and 128-bit, are spelled in place as cell_text spells them,
// unless a sign, a digit or a point is the delimiter, or a number could read as NULL.
TEST_CASE("delimited writer: numbers in place - and quoted where their text is special") {
  Result r;
  r.names = {"i", "d", "w"};
  r.types = {Type::bigint(), Type::decimal(12, 3), Type::decimal(38, 2)};
  r.rows = ResultRows(r.types);
  const int128 big = static_cast<int128>(INT64_MAX) * 1000 + 7;
  r.rows.push_back({Value::from_int(-42), Value::from_decimal(-5), Value::from_decimal(big)});
  r.rows.push_back({Value::from_int(0), Value::from_decimal(1234567), Value::from_decimal(-100)});
  r.rows.push_back({Value(), Value(), Value::from_decimal(0)});
  DelimitedFormat cli{',', DelimitedFormat::Escapes::Csv, "", false};
  const std::string expected =
      "-42,-0.005," + format_decimal(big, 2) + "\n0,1234.567,-1.00\n,,0.00\n";
  CHECK(delimited_rows(r, 0, 3, cli) == expected);
  for (size_t i = 0; i < 3; ++i) {
    for (size_t c = 1; c < 3; ++c) {
      if (!r.rows[i][c].null) CHECK(expected.find(r.cell_text(i, c)) != std::string::npos);
    }
  }
  DelimitedFormat dots{'.', DelimitedFormat::Escapes::Csv, "", false};
  CHECK(delimited_rows(r, 1, 2, dots) == "0.\"1234.567\".\"-1.00\"\n");
  DelimitedFormat zero_null{',', DelimitedFormat::Escapes::Csv, "0", true};
  CHECK(delimited_rows(r, 1, 2, zero_null) == "\"0\",1234.567,-1.00\n");
}

}  // namespace tally
