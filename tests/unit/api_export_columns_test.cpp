// A result read a column at a time: Arrow export of every type (values, NULL slots, bitmaps
// across bytes and across the export's row chunks, strings' offsets), ResultSet::copy_column
// and the column getters, over results built by SQL and by hand (untyped wide columns).
#include <doctest/doctest.h>

#include <cstring>
#include <string>
#include <vector>

#include "api/engine_impl.h"
#include "tally/tally.h"

namespace tally {
namespace {

// Eleven rows (two bitmap bytes), each column NULL where `null_at` says; values from the row.
const char* kEveryType = R"(
CREATE TABLE e (id INTEGER, s SMALLINT, i INTEGER, b BIGINT, r REAL, d DOUBLE, ok BOOLEAN,
                m DECIMAL(9,2), h HUGEINT, dt DATE, ts TIMESTAMP, tz TIMESTAMPTZ, tm TIME,
                v VARCHAR, iv INTERVAL);
INSERT INTO e SELECT range,
  CASE WHEN range % 4 = 1 THEN NULL ELSE CAST(range * 1000 - 5000 AS SMALLINT) END,
  CASE WHEN range = 8 THEN NULL ELSE CAST(range AS INTEGER) * 200000000 - 1000000000 END,
  CASE WHEN range = 10 THEN NULL ELSE CAST(range AS BIGINT) * 3000000000 - 7 END,
  CASE WHEN range % 2 = 0 THEN NULL ELSE CAST(range AS REAL) / 4 END,
  CAST(range AS DOUBLE) * 0.5,
  CASE WHEN range % 5 = 0 THEN NULL ELSE range % 3 = 0 END,
  CASE WHEN range = 3 THEN NULL ELSE CAST(CAST(range - 5 AS DOUBLE) + 0.25 AS DECIMAL(9,2)) END,
  CASE WHEN range = 0 THEN NULL
       ELSE CAST(range AS HUGEINT) * CAST('1000000000000000000000000' AS HUGEINT) END,
  CASE WHEN range = 7 THEN NULL ELSE DATE '2000-01-01' + CAST(range AS INTEGER) END,
  CASE WHEN range = 9 THEN NULL
       ELSE CAST(DATE '1970-01-02' + CAST(range AS INTEGER) AS TIMESTAMP) END,
  CASE WHEN range = 2 THEN NULL ELSE TIMESTAMPTZ '2000-01-01 00:00:00+00' END,
  CASE WHEN range = 4 THEN NULL ELSE TIME '01:02:03' END,
  CASE WHEN range % 3 = 1 THEN NULL WHEN range = 6 THEN '' ELSE CAST(range AS VARCHAR) END,
  CASE WHEN range = 5 THEN NULL ELSE INTERVAL '1 mon 2 days 00:00:03' END
FROM range(11);
)";

constexpr size_t kRows = 11;

Engine every_type_engine() {
  Engine engine(EngineOptions{Device::Cpu});
  engine.execute(kEveryType);
  return engine;
}

// A result's export, released when the test is done with it.
struct Exported {
  ArrowSchema schema;
  ArrowArray array;
  explicit Exported(const ResultSet& result) { result.export_arrow(&schema, &array); }
  ~Exported() {
    array.release(&array);
    schema.release(&schema);
  }
};

// Where each column of `e` (by name) is NULL.
bool null_at(const std::string& column, size_t row) {
  if (column == "s") return row % 4 == 1;
  if (column == "i") return row == 8;
  if (column == "b") return row == 10;
  if (column == "r") return row % 2 == 0;
  if (column == "ok") return row % 5 == 0;
  if (column == "m") return row == 3;
  if (column == "h") return row == 0;
  if (column == "dt") return row == 7;
  if (column == "ts") return row == 9;
  if (column == "tz") return row == 2;
  if (column == "tm") return row == 4;
  if (column == "v") return row % 3 == 1;
  if (column == "iv") return row == 5;
  return false;
}

template <typename T>
T cell(const ArrowArray& array, size_t row) {
  T value;
  std::memcpy(&value, static_cast<const uint8_t*>(array.buffers[1]) + row * sizeof(T), sizeof(T));
  return value;
}

bool bit(const void* bits, size_t index) {
  return (static_cast<const uint8_t*>(bits)[index / 8] >> (index % 8)) & 1;
}

// The validity bitmap says what null_at says, its bits past the last row are 0, and a
// column without NULLs has none.
void check_validity(const std::string& name, const ArrowArray& array) {
  CAPTURE(name);
  int64_t nulls = 0;
  for (size_t row = 0; row < kRows; ++row) nulls += null_at(name, row);
  CHECK(array.null_count == nulls);
  if (nulls == 0) {
    CHECK(array.buffers[0] == nullptr);
    return;
  }
  for (size_t row = 0; row < kRows; ++row) CHECK(bit(array.buffers[0], row) != null_at(name, row));
  CHECK((static_cast<const uint8_t*>(array.buffers[0])[1] >> 3) == 0);
}

// The cell Arrow holds: `value` where valid, zero under a NULL.
template <typename T>
void check_cells(const std::string& name, const ArrowArray& array, auto value) {
  for (size_t row = 0; row < kRows; ++row) {
    CAPTURE(name);
    CAPTURE(row);
    CHECK(cell<T>(array, row) == (null_at(name, row) ? T{} : static_cast<T>(value(row))));
  }
}

TEST_CASE("api export: every type's Arrow buffers hold its cells with zeros under NULLs") {
  Engine engine = every_type_engine();
  ResultSet r = engine.execute("SELECT * FROM e ORDER BY id");
  REQUIRE(r.row_count() == kRows);
  Exported exported(r);
  const ArrowSchema& schema = exported.schema;
  const ArrowArray& array = exported.array;
  REQUIRE(array.n_children == 15);
  std::vector<std::string> formats;
  for (int64_t c = 0; c < array.n_children; ++c) {
    formats.push_back(schema.children[c]->format);
    check_validity(schema.children[c]->name, *array.children[c]);
  }
  CHECK(formats == std::vector<std::string>{"i", "s", "i", "l", "f", "g", "b", "d:9,2", "d:38,0",
                                            "tdD", "tsu:", "tsu:UTC", "ttu", "u", "tin"});
  auto at = [&](int c) -> const ArrowArray& { return *array.children[c]; };
  auto row = [](size_t r) { return static_cast<int64_t>(r); };
  check_cells<int16_t>("s", at(1), [&](size_t r) { return row(r) * 1000 - 5000; });
  check_cells<int32_t>("i", at(2), [&](size_t r) { return row(r) * 200000000 - 1000000000; });
  check_cells<int64_t>("b", at(3), [&](size_t r) { return row(r) * 3000000000 - 7; });
  check_cells<float>("r", at(4), [&](size_t r) { return static_cast<float>(r) / 4; });
  check_cells<double>("d", at(5), [&](size_t r) { return static_cast<double>(r) * 0.5; });
  for (size_t r = 0; r < kRows; ++r) {
    CHECK(bit(at(6).buffers[1], r) == (!null_at("ok", r) && r % 3 == 0));
  }
  CHECK((static_cast<const uint8_t*>(at(6).buffers[1])[1] >> 3) == 0);
  check_cells<int128>("m", at(7), [&](size_t r) { return (row(r) - 5) * 100 + 25; });
  const int128 septillion = static_cast<int128>(1000000000000) * 1000000000000;
  check_cells<int128>("h", at(8), [&](size_t r) { return row(r) * septillion; });
  check_cells<int32_t>("dt", at(9), [&](size_t r) { return 10957 + row(r); });  // 2000-01-01
  check_cells<int64_t>("ts", at(10), [&](size_t r) { return (1 + row(r)) * 86400000000; });
  check_cells<int64_t>("tz", at(11), [&](size_t) { return int64_t{946684800} * 1000000; });
  check_cells<int64_t>("tm", at(12), [&](size_t) { return int64_t{3723} * 1000000; });
  // Strings: offsets grow by each valid row's length; NULLs and '' add none.
  const auto* offsets = static_cast<const int32_t*>(at(13).buffers[1]);
  std::string characters;
  CHECK(offsets[0] == 0);
  for (size_t r = 0; r < kRows; ++r) {
    if (!null_at("v", r) && r != 6) characters += std::to_string(r);
    CHECK(offsets[r + 1] == static_cast<int32_t>(characters.size()));
  }
  CHECK(std::string(static_cast<const char*>(at(13).buffers[2]), characters.size()) == characters);
  // month_day_nano: 1 month, 2 days, 3 s as nanoseconds; zeros under the NULL.
  for (size_t r = 0; r < kRows; ++r) {
    const auto* cell = static_cast<const uint8_t*>(at(14).buffers[1]) + r * 16;
    int32_t months = 0, days = 0;
    int64_t nanos = 0;
    std::memcpy(&months, cell, 4);
    std::memcpy(&days, cell + 4, 4);
    std::memcpy(&nanos, cell + 8, 8);
    const bool null = null_at("iv", r);
    CHECK(months == (null ? 0 : 1));
    CHECK(days == (null ? 0 : 2));
    CHECK(nanos == (null ? 0 : 3000000000));
  }
}

TEST_CASE("api export: a result without rows exports empty buffers - a string column one offset") {
  Engine engine = every_type_engine();
  ResultSet r = engine.execute("SELECT id, ok, m, v FROM e WHERE id < 0");
  Exported exported(r);
  const ArrowArray& array = exported.array;
  REQUIRE(array.n_children == 4);
  for (int64_t c = 0; c < 4; ++c) {
    const ArrowArray& column = *array.children[c];
    CHECK(column.length == 0);
    CHECK(column.null_count == 0);
    CHECK(column.buffers[0] == nullptr);
  }
  CHECK(array.children[0]->buffers[1] == nullptr);
  CHECK(array.children[1]->buffers[1] == nullptr);
  CHECK(static_cast<const int32_t*>(array.children[3]->buffers[1])[0] == 0);
  CHECK(array.children[3]->buffers[2] == nullptr);
  CHECK(r.copy_column(3, nullptr, nullptr) == 0);
  CHECK(r.string_column(3).empty());
}

const char* const kWords[] = {"", "ab", "cde"};

TEST_CASE("api export: an INTERVAL past 2^63 nanoseconds is refused by name - not wrapped") {
  Engine engine(EngineOptions{Device::Cpu});
  // 3,000,000 hours are 1.08e19 ns; 2^63 is 9.22e18. A NULL row beside it exports fine.
  ResultSet r = engine.execute(
      "SELECT CASE WHEN range = 70000 THEN INTERVAL '3000000 hours' WHEN range % 2 = 0 THEN "
      "NULL ELSE INTERVAL '1 hour' END AS iv FROM range(70001)");
  ArrowSchema schema;
  ArrowArray array;
  CHECK_THROWS_WITH_AS(r.export_arrow(&schema, &array),
                       doctest::Contains("INTERVAL whose time part passes 2^63"), Error);
  ResultSet fits = engine.execute("SELECT INTERVAL '2000000 hours' AS iv");
  Exported exported(fits);
  int64_t nanos = 0;  // after the month and day int32s
  std::memcpy(&nanos, static_cast<const uint8_t*>(exported.array.children[0]->buffers[1]) + 8, 8);
  CHECK(nanos == int64_t{2000000} * 3600 * 1000000000);
}

// Rows by hand, past the export's 65,536-row chunks: columns built without types (wide
// cells), a BIGINT and a VARCHAR with NULLs every 7th row.
ResultSet many_rows(size_t rows) {
  StatementOutcome outcome;
  Result& result = outcome.result.emplace();
  result.names = {"n", "word"};
  result.types = {Type::bigint(), Type::varchar()};
  const int64_t words[] = {result.strings->intern(kWords[0]), result.strings->intern(kWords[1]),
                           result.strings->intern(kWords[2])};
  for (size_t row = 0; row < rows; ++row) {
    const bool null = row % 7 == 3;
    result.rows.push_back({null ? Value() : Value::from_int(static_cast<int64_t>(row) - 9),
                           null ? Value() : Value::from_int(words[row % 3])});
  }
  return make_result_set(outcome);
}

TEST_CASE("api export: many rows across chunks - bits - offsets and wide cells read right") {
  const size_t rows = 140001;
  ResultSet r = many_rows(rows);
  Exported exported(r);
  const ArrowArray& array = exported.array;
  const ArrowArray& n = *array.children[0];
  const ArrowArray& word = *array.children[1];
  const auto* offsets = static_cast<const int32_t*>(word.buffers[1]);
  const auto* characters = static_cast<const char*>(word.buffers[2]);
  const int64_t nulls = static_cast<int64_t>((rows + 3) / 7);
  CHECK(n.null_count == nulls);
  CHECK(word.null_count == nulls);
  int32_t at = 0;
  size_t wrong = 0;  // counted, so that a failure reports once rather than per row
  for (size_t row = 0; row < rows; ++row) {
    const bool null = row % 7 == 3;
    const std::string text = null ? "" : kWords[row % 3];
    wrong += bit(n.buffers[0], row) == null || bit(word.buffers[0], row) == null;
    wrong += cell<int64_t>(n, row) != (null ? 0 : static_cast<int64_t>(row) - 9);
    wrong += offsets[row] != at || std::string(characters + at, text.size()) != text;
    at += static_cast<int32_t>(text.size());
  }
  CHECK(wrong == 0);
  CHECK(offsets[rows] == at);
  // The getters read the same cells.
  std::vector<uint8_t> null_bytes(rows);
  std::vector<int64_t> values(rows);
  CHECK(r.copy_column(0, values.data(), null_bytes.data()) == static_cast<size_t>(nulls));
  const auto numbers = r.int64_column(0);
  const auto strings = r.string_column(1);
  for (size_t row = 0; row < rows; ++row) {
    const bool null = row % 7 == 3;
    wrong += null_bytes[row] != null || values[row] != (null ? 0 : cell<int64_t>(n, row));
    wrong += numbers[row].has_value() == null || strings[row].has_value() == null;
    if (!null) wrong += *numbers[row] != values[row] || *strings[row] != r.get_string(row, 1);
  }
  CHECK(wrong == 0);
}

TEST_CASE("api result: copy_column writes each fixed-width type at its own width") {
  Engine engine = every_type_engine();
  ResultSet r = engine.execute("SELECT ok, s, dt, r, d, tm, v, m FROM e ORDER BY id");
  std::vector<uint8_t> nulls(kRows);
  bool booleans[kRows];
  CHECK(r.copy_column(0, booleans, nulls.data()) == 3);  // rows 0, 5, 10
  int16_t smallints[kRows];
  CHECK(r.copy_column(1, smallints, nullptr) == 3);  // rows 1, 5, 9
  int32_t days[kRows];
  r.copy_column(2, days, nullptr);
  float reals[kRows];
  r.copy_column(3, reals, nullptr);
  double doubles[kRows];
  CHECK(r.copy_column(4, doubles, nullptr) == 0);
  int64_t times[kRows];
  r.copy_column(5, times, nullptr);
  for (size_t row = 0; row < kRows; ++row) {
    CAPTURE(row);
    CHECK(nulls[row] == null_at("ok", row));
    CHECK(booleans[row] == (!null_at("ok", row) && row % 3 == 0));
    CHECK(smallints[row] == (null_at("s", row) ? 0 : static_cast<int>(row) * 1000 - 5000));
    CHECK(days[row] == (null_at("dt", row) ? 0 : 10957 + static_cast<int>(row)));
    CHECK(reals[row] == (null_at("r", row) ? 0.0f : static_cast<float>(row) / 4));
    CHECK(doubles[row] == static_cast<double>(row) * 0.5);
    CHECK(times[row] == (null_at("tm", row) ? 0 : int64_t{3723000000}));
  }
  // VARCHAR and DECIMAL have no fixed-width values; their NULLs still come.
  CHECK_THROWS_AS(r.copy_column(6, doubles, nullptr), Error);
  CHECK_THROWS_AS(r.copy_column(7, doubles, nullptr), Error);
  CHECK(r.copy_column(6, nullptr, nulls.data()) == 4);  // rows 1, 4, 7, 10
  CHECK(nulls[4] == 1);
  CHECK(nulls[6] == 0);
  CHECK_THROWS_AS(r.copy_column(8, nullptr, nulls.data()), Error);
  // DECIMAL as doubles: the unscaled value over 10^scale.
  const auto amounts = r.double_column(7);
  CHECK(amounts[0] == -4.75);
  CHECK_FALSE(amounts[3].has_value());
  CHECK(amounts[10] == 5.25);
}

}  // namespace
}  // namespace tally
