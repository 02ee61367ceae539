// The library's Arrow C Data Interface: import of every supported format with NULLs and
// offsets (compared with the same rows INSERTed through SQL), zero-copy borrowing and the
// release callback's timing, errors, and export round trips.
#include <doctest/doctest.h>

#include <cstring>
#include <string>
#include <vector>

#include "api/engine_impl.h"
#include "tally/tally.h"
#include "tests/unit/support/arrow_batch.h"

namespace tally {
namespace {

using test::ArrowTestBatch;
using test::ArrowTestColumn;
using test::bool_column;
using test::fixed_column;
using test::string_column;
template <typename T>
using Opt = std::vector<std::optional<T>>;

constexpr int128 kWide = static_cast<int128>(1234567890123456789) * 100000 + 1234;

// Every supported format, five rows, NULLs in most columns; `lead` junk rows in front.
std::vector<ArrowTestColumn> all_type_columns(size_t lead, bool zero_under_nulls = true) {
  auto fill = [&](auto v) { return zero_under_nulls ? decltype(v){} : v; };
  return {
      fixed_column<int64_t>("id", "l", {1, 2, 3, 4, 5}, lead, 99),
      fixed_column<int8_t>("c8", "c", {5, std::nullopt, -128, 127, 0}, lead, 9, fill(int8_t{7})),
      fixed_column<int16_t>("s16", "s", {-32768, 7, std::nullopt, 32767, 0}, lead, 9,
                            fill(int16_t{7})),
      fixed_column<int32_t>("i32", "i", {std::nullopt, 2147483647, -2147483647, 3, 0}, lead, 9,
                            fill(int32_t{7})),
      fixed_column<int64_t>("i64", "l", {9000000000, std::nullopt, -5, 0, 1}, lead, 9,
                            fill(int64_t{7})),
      fixed_column<float>("f32", "f", {1.5f, std::nullopt, -0.25f, 3.0f, 0.0f}, lead, 9,
                          fill(1e30f)),
      fixed_column<double>("f64", "g", {2.5, -1e10, std::nullopt, 0.125, 7}, lead, 9, fill(1e300)),
      bool_column("b", {true, false, std::nullopt, true, false}, lead),
      fixed_column<int128>("d10", "d:10,2", {12345, -1, std::nullopt, 0, 99999}, lead, 9,
                           fill(int128{7})),
      fixed_column<int128>("d30", "d:30,5", {kWide, -5, std::nullopt, 0, 1}, lead, 9,
                           fill(int128{7})),
      fixed_column<int32_t>("dt", "tdD", {0, 10957, std::nullopt, -1, 19000}, lead, 9,
                            fill(int32_t{7})),
      string_column<int32_t>("u", {"tea", "", std::nullopt, "\xc3\xbcn\xc3\xaf", "coffee"}, lead),
      string_column<int64_t>("lu", {std::nullopt, "a", "bb", "a", "ccc"}, lead),
  };
}

// The same rows, through SQL.
const char* kSameRowsSql = R"(
CREATE TABLE s (id BIGINT, c8 SMALLINT, s16 SMALLINT, i32 INTEGER, i64 BIGINT, f32 REAL,
                f64 DOUBLE, b BOOLEAN, d10 DECIMAL(10,2), d30 DECIMAL(30,5), dt DATE,
                u VARCHAR, lu VARCHAR);
INSERT INTO s VALUES
  (1, 5, -32768, NULL, 9000000000, 1.5, 2.5, true, 123.45, 1234567890123456789.01234,
   DATE '1970-01-01', 'tea', NULL),
  (2, NULL, 7, 2147483647, NULL, NULL, -10000000000, false, -0.01, -0.00005,
   DATE '2000-01-01', '', 'a'),
  (3, -128, NULL, -2147483647, -5, -0.25, NULL, NULL, NULL, NULL, NULL, NULL, 'bb'),
  (4, 127, 32767, 3, 0, 3.0, 0.125, true, 0.00, 0.00000, DATE '1969-12-31', 'ünï', 'a'),
  (5, 0, 0, 0, 1, 0.0, 7, false, 999.99, 0.00001, DATE '2022-01-08', 'coffee', 'ccc');
)";

void register_batch(Engine& engine, const std::string& name, std::vector<ArrowTestColumn> columns,
                    size_t lead, bool child_offset, bool* released = nullptr) {
  auto batch = std::make_unique<ArrowTestBatch>(std::move(columns), lead, child_offset, released);
  ArrowSchema schema;
  ArrowArray array;
  ArrowTestBatch::hand_over(std::move(batch), &schema, &array);
  engine.register_arrow_table(name, &schema, &array);
  CHECK(!array.release);
  CHECK(!schema.release);
}

// Every cell of a result as text, with the column names and types.
std::vector<std::string> texts(const ResultSet& r) {
  std::vector<std::string> out;
  for (size_t c = 0; c < r.column_count(); ++c) {
    out.push_back(r.column(c).name + " " + r.column(c).type_name);
  }
  for (size_t row = 0; row < r.row_count(); ++row) {
    for (size_t c = 0; c < r.column_count(); ++c) out.push_back(r.get_text(row, c));
  }
  return out;
}

void check_same_as_sql(Engine& engine, const std::string& table) {
  engine.execute(kSameRowsSql);
  for (const char* query :
       {"SELECT * FROM {} ORDER BY id",
        "SELECT b, COUNT(*) AS n, COUNT(u) AS nu, SUM(i64) AS s, MIN(d30) AS lo, MAX(dt) AS hi, "
        "SUM(d10) AS sd, AVG(f64) AS af, MIN(lu) AS ml, SUM(c8) AS c, SUM(s16) AS s16 FROM {} "
        "GROUP BY b "
        "ORDER BY b",
        "SELECT u, SUM(f32) AS f, COUNT(*) AS n FROM {} WHERE i32 > 0 OR i32 IS NULL GROUP BY u "
        "ORDER BY u"}) {
    std::string q(query);
    auto with = [&](const std::string& t) {
      std::string s = q;
      for (size_t at; (at = s.find("{}")) != std::string::npos;) s.replace(at, 2, t);
      return s;
    };
    CAPTURE(q);
    CHECK(texts(engine.execute(with(table))) == texts(engine.execute(with("s"))));
  }
}

TEST_CASE("api arrow: every format with NULLs and a child offset equals the same rows INSERTed") {
  Engine engine(EngineOptions{Device::Cpu});
  register_batch(engine, "t", all_type_columns(3), 3, true);
  check_same_as_sql(engine, "t");
}

TEST_CASE("api arrow: the struct array's own offset applies to every column") {
  Engine engine(EngineOptions{Device::Cpu});
  register_batch(engine, "t", all_type_columns(2), 2, false);
  check_same_as_sql(engine, "t");
}

TEST_CASE("api arrow: garbage under NULLs is copied out - not borrowed - and reads the same") {
  Engine engine(EngineOptions{Device::Cpu});
  register_batch(engine, "t", all_type_columns(1, false), 1, true);
  check_same_as_sql(engine, "t");
  TablePtr t = engine.impl().database.table("t");
  CHECK_FALSE(t->columns[4]->borrows_memory());  // i64 has a 7 under its NULL
  CHECK(t->columns[0]->borrows_memory());        // id has no NULLs
}

TEST_CASE("api arrow: fixed-width columns are borrowed in place - the others converted") {
  Engine engine(EngineOptions{Device::Cpu});
  size_t lead = 2;
  auto columns = all_type_columns(lead);
  // Where each column's first visible value lies in the caller's memory.
  std::vector<const uint8_t*> first;
  auto batch = std::make_unique<ArrowTestBatch>(std::move(columns), lead, true, nullptr);
  for (size_t c = 0; c < 13; ++c) {
    const ArrowTestColumn& column = batch->column(c);
    size_t width = column.length ? column.data.size() / static_cast<size_t>(column.length) : 0;
    first.push_back(column.data.data() + lead * width);
  }
  ArrowSchema schema;
  ArrowArray array;
  ArrowTestBatch::hand_over(std::move(batch), &schema, &array);
  engine.register_arrow_table("t", &schema, &array);
  TablePtr t = engine.impl().database.table("t");
  REQUIRE(t->columns.size() == 13);
  // id, s16, i32, i64, f32, f64, d30 (decimal128 kept as such), dt: zero-copy.
  for (size_t c : {0, 2, 3, 4, 5, 6, 9, 10}) {
    CAPTURE(t->schema.columns[c].name);
    CHECK(t->columns[c]->borrows_memory());
    CHECK(t->columns[c]->plain_bytes().data() == first[c]);
  }
  // int8 (widened), bool (bits), DECIMAL(10,2) (int64 in tally), strings: converted.
  for (size_t c : {1, 7, 8, 11, 12}) {
    CAPTURE(t->schema.columns[c].name);
    CHECK_FALSE(t->columns[c]->borrows_memory());
  }
}

TEST_CASE("api arrow: the release callback runs when the last table using the array is gone") {
  Engine engine(EngineOptions{Device::Cpu});
  bool released = false;
  register_batch(engine, "t", all_type_columns(0), 0, true, &released);
  CHECK_FALSE(released);
  // SUM(BIGINT) is DECIMAL(38,0): 9000000000 - 5 + 0 + 1.
  CHECK(engine.execute("SELECT SUM(i64) AS s FROM t").get_text(0, 0) == "8999999996");
  CHECK_FALSE(released);
  // Replacing the table is not enough while an older version is still referenced.
  TablePtr old = engine.impl().database.table("t");
  engine.execute("DROP TABLE t; CREATE TABLE t (x BIGINT)");
  CHECK_FALSE(released);
  old.reset();
  CHECK(released);
}

TEST_CASE("api arrow: an array without borrowed columns is released during the import") {
  Engine engine(EngineOptions{Device::Cpu});
  bool released = false;
  register_batch(engine, "t", {string_column("name", {"a", std::nullopt})}, 0, true, &released);
  CHECK(released);
  ResultSet r = engine.execute("SELECT COUNT(name) AS n, COUNT(*) AS m FROM t");
  CHECK(r.get_int64(0, 0) == 1);
  CHECK(r.get_int64(0, 1) == 2);
}

TEST_CASE("api arrow: an unsupported format names itself and the column - and releases") {
  Engine engine(EngineOptions{Device::Cpu});
  for (const char* format : {"C", "L", "tdm", "d:40,2", "d:10,2,256", "+l"}) {
    CAPTURE(format);
    bool released = false;
    std::vector<ArrowTestColumn> columns = {fixed_column<int64_t>("ok", "l", {1}),
                                            fixed_column<int64_t>("odd", format, {1})};
    try {
      register_batch(engine, "t", std::move(columns), 0, true, &released);
      FAIL("the import succeeded");
    } catch (const Error& e) {
      CHECK(e.kind() == ErrorKind::Unsupported);
      std::string message = e.what();
      CHECK(message.find(std::string("\"") + format + "\"") != std::string::npos);
      CHECK(message.find("\"odd\"") != std::string::npos);
    }
    CHECK(released);
    CHECK(engine.table_names().empty());
  }
}

// ---- export ----

TEST_CASE("api arrow: a result exported and imported again reads the same") {
  Engine engine(EngineOptions{Device::Cpu});
  engine.execute(kSameRowsSql);
  const char* query = "SELECT id, i64, f64, b, d10, d30, dt, u, f32, s16, i32 FROM s ORDER BY id";
  ResultSet original = engine.execute(query);
  ArrowSchema schema;
  ArrowArray array;
  original.export_arrow(&schema, &array);
  REQUIRE(array.n_children == 11);
  CHECK(std::string(schema.children[4]->format) == "d:10,2");
  CHECK(std::string(schema.children[6]->format) == "tdD");
  CHECK(std::string(schema.children[7]->format) == "u");
  CHECK(std::string(schema.children[3]->format) == "b");
  // Arrow's own layout: u's row 3 is NULL, row 1 is empty; b's bits are LSB first.
  const ArrowArray& u = *array.children[7];
  CHECK(u.null_count == 1);
  const auto* valid = static_cast<const uint8_t*>(u.buffers[0]);
  CHECK((valid[0] & 0x1f) == 0b11011);
  const auto* offsets = static_cast<const int32_t*>(u.buffers[1]);
  CHECK(std::string(static_cast<const char*>(u.buffers[2]) + offsets[0], offsets[1] - offsets[0]) ==
        "tea");
  CHECK(offsets[2] == offsets[1]);
  const auto* bits = static_cast<const uint8_t*>(array.children[3]->buffers[1]);
  CHECK((bits[0] & 0b11011) == 0b01001);  // true, false, (NULL), true, false
  const auto* d30 = static_cast<const int128*>(array.children[5]->buffers[1]);
  CHECK(d30[0] == kWide);

  engine.register_arrow_table("back", &schema, &array);
  std::string again(query);
  again.replace(again.find("FROM s"), 6, "FROM back");
  CHECK(texts(engine.execute(again)) == texts(original));
}

TEST_CASE("api arrow: exported structs outlive the result and release their children") {
  ArrowSchema schema;
  ArrowArray array;
  {
    Engine engine(EngineOptions{Device::Cpu});
    engine.execute("CREATE TABLE n (x INTEGER); INSERT INTO n VALUES (1), (NULL)");
    engine.execute("SELECT x, NULL AS nothing FROM n").export_arrow(&schema, &array);
  }
  REQUIRE(array.length == 2);
  CHECK(array.children[1]->null_count == 2);
  CHECK(array.children[0]->null_count == 1);
  CHECK(static_cast<const int32_t*>(array.children[0]->buffers[1])[0] == 1);
  array.release(&array);
  schema.release(&schema);
  CHECK(!array.release);
  CHECK(!schema.release);
}

TEST_CASE("api arrow: an INTERVAL exports as month_day_nano - each part apart") {
  Engine engine(EngineOptions{Device::Cpu});
  ArrowSchema schema;
  ArrowArray array;
  engine.execute(
      "CREATE TABLE iv (id INTEGER, d INTERVAL); INSERT INTO iv VALUES (1, '1 year 2 mons -3 "
      "days 04:00:00.5'), (2, NULL)");
  ResultSet result = engine.execute("SELECT d FROM iv ORDER BY id");
  CHECK(result.column(0).type_name == "INTERVAL");
  CHECK(result.column(0).kind == TypeKind::Interval);
  CHECK(result.get_text(0, 0) == "1 year 2 mons -3 days +04:00:00.5");
  result.export_arrow(&schema, &array);
  REQUIRE(array.length == 2);
  CHECK(std::string(schema.children[0]->format) == "tin");
  CHECK(array.children[0]->null_count == 1);
  const auto* cell = static_cast<const uint8_t*>(array.children[0]->buffers[1]);
  int32_t months = 0, days = 0;
  int64_t nanos = 0;
  std::memcpy(&months, cell, 4);
  std::memcpy(&days, cell + 4, 4);
  std::memcpy(&nanos, cell + 8, 8);
  CHECK(months == 14);
  CHECK(days == -3);
  CHECK(nanos == 14'400'500'000'000);
  array.release(&array);
  schema.release(&schema);
}

// ---- caller-owned columns ----

TEST_CASE("api columns: register_columns borrows the caller's memory until the table is gone") {
  Engine engine(EngineOptions{Device::Cpu});
  auto keys = std::make_shared<std::vector<int32_t>>(std::vector<int32_t>{1, 2, 1, 2, 3});
  auto amounts = std::make_shared<std::vector<double>>(std::vector<double>{1, 2, 3, 4, 5});
  std::vector<uint8_t> valid{0b10111};  // row 3's amount is NULL
  amounts->at(3) = 0;
  std::weak_ptr<std::vector<int32_t>> alive = keys;
  {
    auto holder = std::make_shared<std::pair<decltype(keys), decltype(amounts)>>(keys, amounts);
    ColumnView views[] = {{"k", TypeKind::Integer, keys->data(), 5, nullptr},
                          {"amount", TypeKind::Double, amounts->data(), 5, valid.data()}};
    engine.register_columns("m", views, holder);
    keys.reset();
    amounts.reset();
  }
  CHECK_FALSE(alive.expired());
  TablePtr m = engine.impl().database.table("m");
  CHECK(m->columns[0]->plain_bytes().data() ==
        reinterpret_cast<const uint8_t*>(alive.lock()->data()));
  ResultSet r = engine.execute(
      "SELECT k, SUM(amount) AS s, COUNT(amount) AS n FROM m GROUP BY k "
      "ORDER BY k");
  CHECK(r.double_column(1) == std::vector<std::optional<double>>{4.0, 2.0, 5.0});
  CHECK(r.int64_column(2) == std::vector<std::optional<int64_t>>{2, 1, 1});
  m.reset();
  engine.drop_table("m");
  CHECK(alive.expired());
}

TEST_CASE("api columns: a type without a fixed width is refused by name") {
  Engine engine(EngineOptions{Device::Cpu});
  std::vector<int32_t> data{1};
  ColumnView view{"name", TypeKind::Varchar, data.data(), 1, nullptr};
  CHECK_THROWS_WITH_AS(engine.register_columns("x", std::span(&view, 1)),
                       doctest::Contains("\"name\""), Error);
}

}  // namespace
}  // namespace tally
