// Tables on disk: table files read back exactly in every encoding, damage is reported, the
// manifest commits changes whole, and one process at a time may change a database
// (runtime/storage/table_file.h, runtime/session/database_store.h).
#include "runtime/session/database_store.h"

#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "compiler/common/error.h"
#include "runtime/session/database.h"
#include "runtime/storage/table_file.h"
#include "tests/unit/support/result_check.h"
#include "tests/unit/support/shell.h"
#include "tools/data/paper_tables.h"
#include "tools/data/tpch_lineitem.h"

namespace tally {
namespace {

namespace fs = std::filesystem;

// Every row and every encoding detail of two tables are the same.
void expect_same_table(const Table& a, const Table& b) {
  REQUIRE(a.schema.name == b.schema.name);
  REQUIRE(a.schema.columns == b.schema.columns);
  REQUIRE(a.rows() == b.rows());
  for (size_t c = 0; c < a.columns.size(); ++c) {
    const Column& x = *a.columns[c];
    const Column& y = *b.columns[c];
    CHECK(x.encoding() == y.encoding());
    CHECK(x.bits() == y.bits());
    CHECK(x.base() == y.base());
    CHECK(x.null_count() == y.null_count());
    CHECK(x.min_int() == y.min_int());
    CHECK(x.max_int() == y.max_int());
    CHECK(x.min_wide() == y.min_wide());  // not stored: read back from the values
    CHECK(x.max_wide() == y.max_wide());
    CHECK(x.dictionary() == y.dictionary());
    CHECK(x.validity_words() == y.validity_words());
    CHECK(x.packed_words() == y.packed_words());
    CHECK(std::equal(x.plain_bytes().begin(), x.plain_bytes().end(), y.plain_bytes().begin(),
                     y.plain_bytes().end()));
  }
}

void flip_byte(const fs::path& path, std::streamoff offset) {
  std::fstream file(path, std::ios::in | std::ios::out | std::ios::binary);
  file.seekg(offset);
  char c = 0;
  file.get(c);
  file.seekp(offset);
  file.put(static_cast<char>(c ^ 0x5a));
}

uint32_t file_version(const fs::path& path) {
  std::ifstream file(path, std::ios::binary);
  file.seekg(8);  // after the magic
  uint32_t version = 0;
  file.read(reinterpret_cast<char*>(&version), sizeof(version));
  return version;
}

}  // namespace

TEST_CASE("table files: a TIMESTAMP column makes a version 2 file - readers refuse version 5") {
  test::ScratchDir dir("tally_table_file");
  Database db;
  test::run_script(db,
                   "CREATE TABLE t (id INTEGER, ts TIMESTAMP); CREATE TABLE d (id INTEGER);"
                   "INSERT INTO t VALUES (1, TIMESTAMP '1969-07-20 20:17:40'), (2, NULL), "
                   "(3, TIMESTAMP '2024-01-15 10:30:00.123456'); INSERT INTO d VALUES (1)");
  const fs::path path = dir.path() / "t.table";
  write_table_file(*db.table("t"), path.string());
  CHECK(file_version(path) == 2);
  expect_same_table(*db.table("t"), *read_table_file(path.string()));
  write_table_file(*db.table("d"), path.string());
  CHECK(file_version(path) == 1);  // what earlier tally versions read
  expect_same_table(*db.table("d"), *read_table_file(path.string()));
  {
    std::fstream file(path, std::ios::in | std::ios::out | std::ios::binary);
    file.seekp(8);
    const uint32_t future = 5;
    file.write(reinterpret_cast<const char*>(&future), sizeof(future));
  }
  CHECK(test::error_from([&] { read_table_file(path.string()); }, ErrorKind::Data)
            .find("format version 5 is unknown") != std::string::npos);
}

TEST_CASE("table files: TIMESTAMPTZ and TIME columns make a version 3 file and read back") {
  test::ScratchDir dir("tally_table_file");
  Database db;
  test::run_script(db,
                   "CREATE TABLE z (id INTEGER, ts TIMESTAMP, tz TIMESTAMPTZ, t TIME);"
                   "INSERT INTO z VALUES (1, '1969-07-20 20:17:40', '2024-01-15 10:30:00+02', "
                   "'24:00:00'), (2, NULL, NULL, NULL), (3, '2024-01-15 10:30:00.123456', "
                   "'1969-12-31 23:59:59.5', '00:00:00.000001')");
  const fs::path path = dir.path() / "z.table";
  write_table_file(*db.table("z"), path.string());
  CHECK(file_version(path) == 3);
  auto back = read_table_file(path.string());
  expect_same_table(*db.table("z"), *back);
  CHECK(back->schema.columns[2].type == Type::timestamptz());
  CHECK(back->schema.columns[3].type == Type::time());
}

TEST_CASE("table files: a HUGEINT column makes a version 4 file and reads back") {
  test::ScratchDir dir("tally_table_file");
  Database db;
  test::run_script(
      db,
      "CREATE TABLE h (id INTEGER, v HUGEINT, ts TIMESTAMP);"
      "INSERT INTO h VALUES (1, '170141183460469231731687303715884105727', NULL), "
      "(2, NULL, '2024-01-15 10:30:00'), (3, '-170141183460469231731687303715884105728', "
      "NULL), (4, -18446744073709551616, NULL)");
  const fs::path path = dir.path() / "h.table";
  write_table_file(*db.table("h"), path.string());
  CHECK(file_version(path) == 4);
  auto back = read_table_file(path.string());
  expect_same_table(*db.table("h"), *back);
  CHECK(back->schema.columns[1].type == Type::hugeint());
  const int128 largest = static_cast<int128>((~static_cast<unsigned __int128>(0)) >> 1);
  CHECK(back->columns[1]->get_wide(0) == largest);
  CHECK(back->columns[1]->max_wide() == largest);
  CHECK(back->columns[1]->min_wide() == -largest - 1);
}

TEST_CASE("table files: an INTERVAL column makes a version 4 file and reads back") {
  test::ScratchDir dir("tally_table_file");
  Database db;
  test::run_script(db,
                   "CREATE TABLE s (id INTEGER, t TIME, d INTERVAL);"
                   "INSERT INTO s VALUES (1, '10:00', '1 year 2 mons -3 days 04:05:06.5'), "
                   "(2, NULL, NULL), (3, '24:00:00', '-2147483648 days -00:00:00.000001')");
  const fs::path path = dir.path() / "s.table";
  write_table_file(*db.table("s"), path.string());
  CHECK(file_version(path) == 4);
  auto back = read_table_file(path.string());
  expect_same_table(*db.table("s"), *back);
  CHECK(back->schema.columns[2].type == Type::interval());
  Database reread;
  reread.put_table(back);
  const Result r = test::run_sql(reread, "SELECT CAST(d AS VARCHAR) FROM s ORDER BY id");
  REQUIRE(r.rows.size() == 3);
  CHECK(r.strings->get(r.rows[0][0].i) == "1 year 2 mons -3 days +04:05:06.5");
  CHECK(r.rows[1][0].null);
  CHECK(r.strings->get(r.rows[2][0].i) == "-2147483648 days -00:00:00.000001");
}

TEST_CASE("table files: every encoding - type and NULL pattern reads back exactly") {
  test::ScratchDir dir("tally_table_file");
  Database db;
  test::run_script(db,
                   "CREATE TABLE w (d DECIMAL(30,4), m DECIMAL(10,2), r REAL, x DOUBLE, "
                   "b BOOLEAN, c CHAR(3), v VARCHAR, dt DATE, s SMALLINT);"
                   "INSERT INTO w VALUES (-12345678901234567890.1234, 1.50, 0.5, 1e300, true, "
                   "'ab', 'hello', DATE '1995-06-17', -7), (NULL, NULL, NULL, NULL, NULL, NULL, "
                   "NULL, NULL, NULL), (0, -99999999.99, -1.25, -0.0, false, 'z', '', "
                   "DATE '0001-01-01', 32767)");
  for (const TablePtr& table :
       {db.table("w"), generate_lineitem(0.002, 3), generate_nulls_table(5000, 0.3, 3),
        generate_atable(70000, 1u << 20, 1.1, 3), make_empty_table(db.table("w")->schema)}) {
    const std::string path = (dir.path() / "t.table").string();
    write_table_file(*table, path);
    expect_same_table(*table, *read_table_file(path));
  }
}

TEST_CASE("table files: damage anywhere is reported with the file - never read as data") {
  test::ScratchDir dir("tally_table_file");
  const fs::path path = dir.path() / "t.table";
  write_table_file(*generate_orders_table(1000, 50, 1), path.string());
  const auto size = static_cast<std::streamoff>(fs::file_size(path));
  for (std::streamoff offset :
       {std::streamoff{0}, std::streamoff{9}, std::streamoff{30}, size / 2, size - 1}) {
    write_table_file(*generate_orders_table(1000, 50, 1), path.string());
    flip_byte(path, offset);
    const std::string message =
        test::error_from([&] { read_table_file(path.string()); }, ErrorKind::Data);
    CHECK(message.find("the table file " + path.string() + " is damaged: ") == 0);
  }
  fs::resize_file(path, 100);
  CHECK(
      test::error_from([&] { read_table_file(path.string()); }, ErrorKind::Data).find("damaged") !=
      std::string::npos);
  CHECK(test::error_from([&] { read_table_file((dir.path() / "none").string()); }, ErrorKind::Io)
            .find("cannot open") == 0);
}

TEST_CASE("database store: changes persist - replace - drop - and a damaged manifest is named") {
  test::ScratchDir dir("tally_store");
  const std::string path = (dir.path() / "sales.tdb").string();
  {
    Database db;
    db.open_store(path);
    test::run_script(db,
                     "CREATE TABLE t (a INTEGER, s VARCHAR); INSERT INTO t VALUES (1, 'x');"
                     "CREATE TABLE u (b BIGINT); INSERT INTO t VALUES (2, NULL)");
  }
  {
    Database db;
    db.open_store(path);
    test::expect_rows(
        test::run_sql(db, "SELECT a, s FROM t ORDER BY a"),
        {{test::int_cell(1), test::text_cell("x")}, {test::int_cell(2), test::null_cell()}});
    test::run_script(db, "DROP TABLE u");
  }
  Database reopened;
  reopened.open_store(path);
  CHECK(reopened.table_names() == std::vector<std::string>{"t"});
  size_t files = 0;
  for (const auto& entry : fs::directory_iterator(path))
    files += entry.path().extension() == ".table";
  CHECK(files == 1);  // replaced and dropped tables' files are gone

  flip_byte(fs::path(path) / "MANIFEST", 20);
  Database damaged;
  CHECK(test::error_from([&] { damaged.open_store(path); }, ErrorKind::Data) ==
        "the database " + path + " is damaged: its MANIFEST's checksum does not match");
  std::ofstream(dir.path() / "plain_file") << "x";
  CHECK(test::error_from([&] { damaged.open_store((dir.path() / "plain_file").string()); },
                         ErrorKind::Io)
            .find("is not a tally database") != std::string::npos);
}

TEST_CASE("database store: one writer at a time - a refused change leaves the table as it was") {
  test::ScratchDir dir("tally_store");
  const std::string path = (dir.path() / "db.tdb").string();
  Database writer;
  writer.open_store(path);
  test::run_script(writer, "CREATE TABLE t (a INTEGER); INSERT INTO t VALUES (1)");
  Database other;
  other.open_store(path);  // reading is always allowed
  test::expect_rows(test::run_sql(other, "SELECT COUNT(*) FROM t"), {{test::int_cell(1)}});
  const std::string message =
      test::error_from([&] { test::run_script(other, "INSERT INTO t VALUES (2)"); }, ErrorKind::Io);
  CHECK(message.find("is being changed by another process") != std::string::npos);
  test::expect_rows(test::run_sql(other, "SELECT COUNT(*) FROM t"), {{test::int_cell(1)}});
  CHECK_THROWS_AS(test::run_script(other, "CREATE TABLE v (b INTEGER)"), Error);
  CHECK(other.table("v") == nullptr);
}

}  // namespace tally
