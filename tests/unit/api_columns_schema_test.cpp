// The library API's later additions: register_columns with VARCHAR, DECIMAL, BOOLEAN and
// NULL masks; tables() and a table's schema; gpu_info; cancel and progress.
#include <doctest/doctest.h>

#include <atomic>
#include <cstring>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "tally/tally.h"

namespace tally {
namespace {

TEST_CASE("api columns: VARCHAR DECIMAL BOOLEAN and DATE columns with NULL masks") {
  Engine engine(EngineOptions{Device::Cpu});
  std::string bytes = "northsouthnorth";
  std::vector<int64_t> offsets{0, 5, 10, 15, 15};
  std::vector<int128> cents{1050, 2000, 525, 0};
  std::vector<uint8_t> rush{1, 0, 1, 0};
  std::vector<int32_t> days{19723, 19724, 19754, 0};
  std::vector<uint8_t> valid{0b0111};  // row 3 NULL
  std::vector<ColumnView> views{
      {"region", TypeKind::Varchar, bytes.data(), 4, valid.data(), offsets.data()},
      {"amount", TypeKind::Decimal, cents.data(), 4, valid.data(), nullptr, 10, 2},
      {"rush", TypeKind::Boolean, rush.data(), 4, valid.data()},
      {"day", TypeKind::Date, days.data(), 4, valid.data()}};
  engine.register_columns("sales", views);
  ResultSet r = engine.execute(
      "SELECT region, SUM(amount), COUNT(*), MIN(day), BOOL_OR(rush) FROM sales GROUP BY region "
      "ORDER BY region");
  REQUIRE(r.row_count() == 3);
  CHECK(r.get_text(0, 0) == "north");
  CHECK(r.get_text(0, 1) == "15.75");
  CHECK(r.get_text(0, 3) == "2024-01-01");
  CHECK(r.get_bool(0, 4));
  CHECK(r.get_text(1, 1) == "20.00");
  CHECK(r.is_null(2, 0));
  CHECK(r.is_null(2, 1));
}

TEST_CASE("api columns: a VARCHAR view without offsets is refused") {
  Engine engine(EngineOptions{Device::Cpu});
  std::string bytes = "ab";
  std::vector<ColumnView> views{{"s", TypeKind::Varchar, bytes.data(), 2}};
  CHECK_THROWS_AS(engine.register_columns("t", views), Error);
}

TEST_CASE("api schema: tables() and table(name) give columns types and rows") {
  Engine engine(EngineOptions{Device::Cpu});
  engine.execute(
      "CREATE TABLE b (x INTEGER, d DECIMAL(12,3)); CREATE TABLE a (s VARCHAR(4));"
      "INSERT INTO b VALUES (1, 1.5), (2, NULL)");
  std::vector<TableInfo> tables = engine.tables();
  REQUIRE(tables.size() == 2);
  CHECK(tables[0].name == "a");
  CHECK(tables[1].rows == 2);
  TableInfo b = engine.table("b");
  REQUIRE(b.columns.size() == 2);
  CHECK(b.columns[1].name == "d");
  CHECK(b.columns[1].type_name == "DECIMAL(12,3)");
  CHECK(b.columns[1].kind == TypeKind::Decimal);
  CHECK(b.columns[1].scale == 3);
  CHECK_THROWS_AS(engine.table("c"), Error);
}

TEST_CASE("api gpu_info: usable with a name and memory or a reason") {
  GpuInfo info = gpu_info();
  if (info.usable) {
    CHECK(!info.name.empty());
    CHECK(info.memory_bytes > 0);
  } else {
    CHECK(!info.reason.empty());
  }
}

TEST_CASE("api progress: the CPU engine tells the rows scanned") {
  std::vector<uint64_t> done;
  uint64_t total = 0;
  EngineOptions options{Device::Cpu, 1};
  options.progress = [&](uint64_t rows, uint64_t all) {
    done.push_back(rows);
    total = all;
  };
  Engine engine(options);
  std::vector<int64_t> values(100000, 1);
  std::vector<ColumnView> views{{"v", TypeKind::BigInt, values.data(), values.size()}};
  engine.register_columns("t", views);
  CHECK(engine.execute("SELECT COUNT(v) FROM t WHERE v > 0").get_int64(0, 0) == 100000);
  REQUIRE(!done.empty());
  CHECK(done.back() == 100000);
  CHECK(total == 100000);
}

TEST_CASE("api cancel: a running statement stops with Error(Cancelled)") {
  std::atomic<bool> started{false};
  EngineOptions options{Device::Cpu, 1};
  options.progress = [&](uint64_t, uint64_t) { started = true; };
  Engine engine(options);
  std::vector<int64_t> values(4000000);
  for (size_t i = 0; i < values.size(); ++i) values[i] = static_cast<int64_t>(i);
  std::vector<ColumnView> views{{"v", TypeKind::BigInt, values.data(), values.size()}};
  engine.register_columns("t", views);
  std::optional<ErrorKind> kind;
  std::thread query([&] {
    try {
      engine.execute("SELECT v % 100, COUNT(DISTINCT v) FROM t GROUP BY v % 100");
    } catch (const Error& e) {
      kind = e.kind();
    }
  });
  while (!started) std::this_thread::yield();
  engine.cancel();
  query.join();
  REQUIRE(kind.has_value());
  CHECK(*kind == ErrorKind::Cancelled);
  CHECK(engine.execute("SELECT COUNT(*) FROM t").get_int64(0, 0) == 4000000);
}

}  // namespace
}  // namespace tally
