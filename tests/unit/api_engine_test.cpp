// The library API: scripts, prepared statements and their binds, ResultSet reads and their
// checks, the error model, and agreement with the tally command.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "tally/tally.h"
#include "tests/unit/support/generated_tables.h"
#include "tests/unit/support/shell.h"

namespace tally {
namespace {

const char* kSales = R"(
CREATE TABLE sales (id INTEGER, region VARCHAR(8), amount DECIMAL(8,2), day DATE, rush BOOLEAN,
                    score DOUBLE, qty SMALLINT);
INSERT INTO sales VALUES
  (1, 'north', 10.50, DATE '2024-01-01', true, 0.5, 3),
  (2, 'south', 20.00, DATE '2024-01-02', false, 1.5, 4),
  (3, 'north', 5.25, DATE '2024-02-01', NULL, NULL, 5),
  (4, NULL, NULL, NULL, false, 2.0, NULL);
)";

Engine sales_engine() {
  Engine engine(EngineOptions{Device::Cpu});
  engine.execute(kSales);
  return engine;
}

TEST_CASE("api engine: a script returns its last statement's result and tag") {
  Engine engine(EngineOptions{Device::Cpu});
  ResultSet created = engine.execute("CREATE TABLE t (x INTEGER)");
  CHECK(created.column_count() == 0);
  CHECK(created.row_count() == 0);
  CHECK(created.tag() == "CREATE TABLE");
  ResultSet r = engine.execute("INSERT INTO t VALUES (1), (2); SELECT SUM(x) AS s FROM t");
  CHECK(r.tag() == "SELECT 1");
  CHECK(r.device() == "cpu");
  CHECK(r.column(0).name == "s");
  CHECK(r.column(0).kind == TypeKind::BigInt);
  CHECK(r.get_int64(0, 0) == 3);
  CHECK(engine.table_names() == std::vector<std::string>{"t"});
}

TEST_CASE("api engine: a syntax error runs nothing of the script and keeps its location") {
  Engine engine(EngineOptions{Device::Cpu});
  try {
    engine.execute("CREATE TABLE t (x INTEGER);\nSELECT x FROM )");
    FAIL("no error");
  } catch (const Error& e) {
    CHECK(e.kind() == ErrorKind::Syntax);
    REQUIRE(e.location().has_value());
    CHECK(e.location()->line == 2);
  }
  CHECK(engine.table_names().empty());
}

TEST_CASE("api engine: internal errors surface as tally::Error with their kind") {
  Engine engine = sales_engine();
  auto kind_of = [&](const char* sql) {
    try {
      engine.execute(sql);
    } catch (const Error& e) {
      return e.kind();
    }
    return ErrorKind::Internal;
  };
  CHECK(kind_of("SELECT nope FROM sales") == ErrorKind::Binder);
  CHECK(kind_of("SELECT * FROM nowhere") == ErrorKind::Binder);
  CHECK(kind_of("DROP TABLE nowhere") == ErrorKind::Catalog);
  CHECK(kind_of("SELECT SUM(region) FROM sales") == ErrorKind::Type);
  CHECK(kind_of("SELECT 1 / 0") == ErrorKind::Execution);
  CHECK(kind_of("COPY sales FROM '/nonexistent/file.csv'") == ErrorKind::Io);
  CHECK(std::string(error_kind_name(ErrorKind::Binder)) == "binder error");
  // A failing statement of a script leaves the earlier ones done, the table intact.
  CHECK_THROWS_AS(engine.execute("INSERT INTO sales VALUES (5, 'x', 1, NULL, NULL, NULL, 1); "
                                 "INSERT INTO sales VALUES ('bad')"),
                  Error);
  CHECK(engine.execute("SELECT COUNT(*) AS n FROM sales").get_int64(0, 0) == 5);
}

TEST_CASE("api result: typed getters by row and by column - with NULL and type checks") {
  Engine engine = sales_engine();
  ResultSet r =
      engine.execute("SELECT id, region, amount, day, rush, score, qty FROM sales ORDER BY id");
  REQUIRE(r.row_count() == 4);
  CHECK(r.column(2).type_name == "DECIMAL(8,2)");
  CHECK(r.column(2).precision == 8);
  CHECK(r.column(2).scale == 2);
  CHECK(r.column_index("day") == 3);
  CHECK_THROWS_AS(r.column_index("nope"), Error);
  CHECK(r.get_int64(0, 0) == 1);
  CHECK(r.get_string(1, 1) == "south");
  CHECK(r.get_unscaled(0, 2) == 1050);
  CHECK(r.get_double(0, 2) == doctest::Approx(10.5));
  CHECK(r.get_text(2, 2) == "5.25");
  CHECK(r.get_date(0, 3) == 19723);  // 2024-01-01: 54 years of days, 13 of them leap
  CHECK(r.get_text(0, 3) == "2024-01-01");
  CHECK(r.get_bool(0, 4));
  CHECK_FALSE(r.get_bool(1, 4));
  CHECK(r.get_double(1, 5) == 1.5);
  CHECK(r.get_int64(1, 6) == 4);
  CHECK(r.get_double(1, 6) == 4.0);  // integers read as doubles too
  // NULLs.
  CHECK(r.is_null(3, 1));
  CHECK(r.get_text(3, 1) == "NULL");
  try {
    r.get_string(3, 1);
    FAIL("read a NULL");
  } catch (const Error& e) {
    CHECK(e.kind() == ErrorKind::Execution);
    CHECK(std::string(e.what()).find("NULL") != std::string::npos);
  }
  // Wrong types and ranges.
  CHECK_THROWS_AS(r.get_int64(0, 1), Error);
  CHECK_THROWS_AS(r.get_string(0, 0), Error);
  CHECK_THROWS_AS(r.get_date(0, 0), Error);
  CHECK_THROWS_AS(r.get_int64(4, 0), Error);
  CHECK_THROWS_AS(r.get_int64(0, 7), Error);
  try {
    r.get_bool(0, 2);
    FAIL("read a DECIMAL as a boolean");
  } catch (const Error& e) {
    CHECK(e.kind() == ErrorKind::Type);
    CHECK(std::string(e.what()).find("DECIMAL(8,2)") != std::string::npos);
  }
  // Columns.
  CHECK(r.int64_column(6) == std::vector<std::optional<int64_t>>{3, 4, 5, std::nullopt});
  CHECK(r.string_column(1) ==
        std::vector<std::optional<std::string>>{"north", "south", "north", std::nullopt});
  CHECK(r.text_column(2) == std::vector<std::string>{"10.50", "20.00", "5.25", "NULL"});
  CHECK(r.double_column(5) == std::vector<std::optional<double>>{0.5, 1.5, std::nullopt, 2.0});
  CHECK_THROWS_AS(r.int64_column(1), Error);
  // A copy shares the rows and outlives the engine's statement.
  ResultSet copy = r;
  CHECK(copy.get_string(0, 1) == "north");
}

TEST_CASE("api result: an empty ResultSet has no cells") {
  ResultSet empty;
  CHECK(empty.column_count() == 0);
  CHECK(empty.row_count() == 0);
  CHECK(empty.tag().empty());
  CHECK_THROWS_AS(empty.get_text(0, 0), Error);
  CHECK_THROWS_AS(empty.column(0), Error);
}

// ---- prepared statements ----

TEST_CASE("api prepared: one statement - many parameter values") {
  Engine engine = sales_engine();
  PreparedStatement q = engine.prepare(
      "SELECT COUNT(*) AS n, SUM(amount) AS total FROM sales WHERE day <= ? AND amount > ?");
  REQUIRE(q.parameter_count() == 2);
  CHECK(q.parameter_type(1) == "DATE");
  CHECK(q.parameter_type(2) == "DECIMAL(8,2)");
  // Rows 1..3 have days 2024-01-01, 01-02, 02-01 and amounts 10.50, 20.00, 5.25.
  ResultSet all = q.bind(1, "2024-12-31").bind_decimal(2, "0").execute();
  CHECK(all.get_int64(0, 0) == 3);
  CHECK(all.get_text(0, 1) == "35.75");
  ResultSet january = q.bind(1, "2024-01-31").bind(2, 10).execute();
  CHECK(january.get_int64(0, 0) == 2);
  CHECK(january.get_text(0, 1) == "30.50");
  ResultSet big = q.bind(2, 10.5).execute();  // > 10.50 leaves only 20.00
  CHECK(big.get_text(0, 1) == "20.00");
  ResultSet none = q.bind(2, nullptr).execute();  // amount > NULL is never true
  CHECK(none.get_int64(0, 0) == 0);
  CHECK(none.is_null(0, 1));
}

TEST_CASE("api prepared: binds of the wrong kind - bad text and bad indexes are refused") {
  Engine engine = sales_engine();
  PreparedStatement q = engine.prepare(
      "SELECT COUNT(*) AS n FROM sales WHERE day <= ? AND qty < ? AND region = ? AND rush = ? "
      "AND score > ?");
  REQUIRE(q.parameter_count() == 5);
  auto kind_of = [](auto bind) {
    try {
      bind();
    } catch (const Error& e) {
      return e.kind();
    }
    return ErrorKind::Internal;
  };
  CHECK(kind_of([&] { q.bind(1, 20240101); }) == ErrorKind::Type);  // DATE from an integer
  CHECK(kind_of([&] { q.bind(1, "not a date"); }) == ErrorKind::Type);
  CHECK(kind_of([&] { q.bind(2, 1.5); }) == ErrorKind::Type);     // SMALLINT from a double
  CHECK(kind_of([&] { q.bind(2, 100000); }) == ErrorKind::Type);  // out of SMALLINT's range
  CHECK(kind_of([&] { q.bind(3, 7); }) == ErrorKind::Type);       // VARCHAR from an integer
  CHECK(kind_of([&] { q.bind(4, 1); }) == ErrorKind::Type);       // BOOLEAN from an integer
  CHECK(kind_of([&] { q.bind_decimal(4, "1"); }) == ErrorKind::Type);
  CHECK(kind_of([&] { q.bind(5, true); }) == ErrorKind::Type);  // DOUBLE from a boolean
  CHECK(kind_of([&] { q.bind(0, 1); }) == ErrorKind::Binder);   // numbered from 1
  CHECK(kind_of([&] { q.bind(6, 1); }) == ErrorKind::Binder);
  try {
    q.bind(1, 20240101);
  } catch (const Error& e) {
    CHECK(std::string(e.what()).find("parameter 1 is DATE") != std::string::npos);
  }
  // Unbound parameters are an error at execute; a refused bind leaves the old value.
  CHECK(kind_of([&] { q.execute(); }) == ErrorKind::Execution);
  q.bind(1, "2024-12-31").bind(2, 5).bind(3, "north").bind(4, true).bind(5, 0.25);
  CHECK(q.execute().get_int64(0, 0) == 1);  // row 1: north, rush, qty 3, score 0.5
  CHECK_THROWS_AS(q.bind(2, 1.5), Error);
  CHECK(q.execute().get_int64(0, 0) == 1);
  q.clear_bindings();
  CHECK(kind_of([&] { q.execute(); }) == ErrorKind::Execution);
}

TEST_CASE("api prepared: a copy binds on its own and the statement outlives its engine handle") {
  std::optional<PreparedStatement> kept;
  {
    Engine engine = sales_engine();
    PreparedStatement q = engine.prepare("SELECT COUNT(*) AS n FROM sales WHERE id <= ?");
    q.bind(1, 2);
    PreparedStatement other = q;
    other.bind(1, 3);
    CHECK(q.execute().get_int64(0, 0) == 2);
    CHECK(other.execute().get_int64(0, 0) == 3);
    kept = other;
  }
  CHECK(kept->execute().get_int64(0, 0) == 3);
}

TEST_CASE("api prepared: only one SELECT can be prepared") {
  Engine engine = sales_engine();
  CHECK_THROWS_AS(engine.prepare("INSERT INTO sales VALUES (?)"), Error);
  CHECK_THROWS_AS(engine.prepare("SELECT 1; SELECT 2"), Error);
  CHECK_THROWS_AS(engine.prepare("SELECT nope FROM sales WHERE id = ?"), Error);
}

// ---- generated tables and the tally command ----

TEST_CASE("api engine: results through the API equal the tally command's CSV") {
  Engine engine(EngineOptions{Device::Cpu});
  test::register_generated(engine, {.tpch_sf = 0.002, .orders_rows = 5000, .seed = 3});
  struct Case {
    std::string generator, sql;
  };
  std::vector<Case> cases = {
      {"--tpch=0.002",
       "SELECT l_returnflag, l_linestatus, SUM(l_quantity) AS q, AVG(l_extendedprice) AS p, "
       "COUNT(*) AS n FROM lineitem WHERE l_shipdate <= DATE '1998-09-02' GROUP BY l_returnflag, "
       "l_linestatus ORDER BY l_returnflag, l_linestatus"},
      {"--orders=5000",
       "SELECT zip, SUM(chargedamount) AS s, COUNT(*) AS n FROM orders GROUP BY zip ORDER BY s "
       "DESC, zip LIMIT 5"},
  };
  for (const Case& c : cases) {
    CAPTURE(c.sql);
    test::ScratchDir dir;
    std::string out = (dir.path() / "out.csv").string();
    std::string command = test::shell_quote(TALLY_BINARY) + " run --device cpu --seed 3 " +
                          c.generator + " --format csv -e " + test::shell_quote(c.sql) + " > " +
                          test::shell_quote(out);
    REQUIRE(std::system(command.c_str()) == 0);
    ResultSet r = engine.execute(c.sql);
    std::string csv;
    for (size_t col = 0; col < r.column_count(); ++col) {
      csv += (col ? "," : "") + r.column(col).name;
    }
    csv += "\n";
    for (size_t row = 0; row < r.row_count(); ++row) {
      for (size_t col = 0; col < r.column_count(); ++col) {
        csv += (col ? "," : "") + r.get_text(row, col);
      }
      csv += "\n";
    }
    CHECK(r.row_count() > 0);
    CHECK(test::slurp(out) == csv);
  }
}

TEST_CASE("api engine: generated tables and drop_table") {
  Engine engine(EngineOptions{Device::Cpu, 2});
  test::register_generated(engine, {.orders_rows = 100, .atable_rows = 1000, .zipf = 0, .seed = 1});
  CHECK(engine.table_names() == std::vector<std::string>{"atable", "orders"});
  CHECK(engine.execute("SELECT COUNT(*) AS n FROM atable").get_int64(0, 0) == 1000);
  engine.drop_table("atable");
  CHECK(engine.table_names() == std::vector<std::string>{"orders"});
  CHECK_THROWS_AS(engine.drop_table("atable"), Error);
  CHECK_THROWS_AS(test::register_tpch_lineitem(engine, 0), Error);
}

}  // namespace
}  // namespace tally
