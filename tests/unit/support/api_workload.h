// A multi-threaded workload for the library API, shared by the CPU test
// (tests/unit/api_threads_test.cpp) and the GPU one (tests/gpu/api_threads_test.cpp):
// threads run prepared and ad hoc SELECTs with different parameters, and one thread
// INSERTs, on one Engine; every result must equal the same statement run alone.
#pragma once

#include <doctest/doctest.h>

#include <atomic>
#include <string>
#include <thread>
#include <vector>

#include "tally/tally.h"
#include "tests/unit/support/generated_tables.h"

namespace tally::test {

// Every cell as text, the column names first.
inline std::vector<std::string> result_texts(const ResultSet& r) {
  std::vector<std::string> out;
  for (size_t c = 0; c < r.column_count(); ++c) out.push_back(r.column(c).name);
  for (size_t row = 0; row < r.row_count(); ++row) {
    for (size_t c = 0; c < r.column_count(); ++c) out.push_back(r.get_text(row, c));
  }
  return out;
}

struct WorkItem {
  std::string sql;
  std::vector<std::string> parameters;  // empty: run ad hoc with execute()
};

inline std::vector<WorkItem> work_items() {
  const std::string q1 =
      "SELECT l_returnflag, l_linestatus, SUM(l_quantity) AS q, SUM(l_extendedprice * (1 - "
      "l_discount)) AS disc, AVG(l_discount) AS d, COUNT(*) AS n FROM lineitem WHERE l_shipdate "
      "<= ? GROUP BY l_returnflag, l_linestatus ORDER BY l_returnflag, l_linestatus";
  const std::string by_mode =
      "SELECT l_shipmode, COUNT(*) AS n, MAX(l_extendedprice) AS top FROM lineitem WHERE "
      "l_quantity < ? GROUP BY l_shipmode ORDER BY l_shipmode";
  std::vector<WorkItem> items;
  for (const char* date : {"1993-01-01", "1995-06-17", "1998-09-02"}) items.push_back({q1, {date}});
  for (const char* quantity : {"5", "24", "50"}) items.push_back({by_mode, {quantity}});
  for (int discount : {2, 5, 8}) {
    items.push_back(
        {"SELECT SUM(l_extendedprice * l_discount) AS revenue, COUNT(*) AS n FROM "
         "lineitem WHERE l_discount = 0.0" +
             std::to_string(discount) + " AND l_quantity < 24",
         {}});
  }
  return items;
}

// Runs the workload on `device` and checks it. With threads == 1 nothing overlaps.
inline void check_concurrent_workload(Device device, int threads, int rounds) {
  Engine engine(EngineOptions{device});
  register_tpch_lineitem(engine, 0.01, 5);
  engine.execute("CREATE TABLE log (thread INTEGER, round INTEGER)");
  std::vector<WorkItem> items = work_items();
  auto run = [&](const WorkItem& item, PreparedStatement* prepared) {
    if (item.parameters.empty()) return result_texts(engine.execute(item.sql));
    return result_texts(prepared->bind(1, item.parameters[0]).execute());
  };
  // Alone first: the expected results.
  std::vector<std::vector<std::string>> expected;
  for (const WorkItem& item : items) {
    PreparedStatement p = engine.prepare(item.sql);
    expected.push_back(run(item, &p));
  }
  // Then `threads` threads, each going through the items in its own order, preparing
  // its own statements, while one more thread INSERTs.
  std::vector<std::vector<std::vector<std::string>>> got(threads);
  std::vector<std::string> errors(threads + 1);
  std::vector<std::thread> pool;
  for (int t = 0; t < threads; ++t) {
    pool.emplace_back([&, t] {
      try {
        std::vector<PreparedStatement> prepared;
        for (const WorkItem& item : items) prepared.push_back(engine.prepare(item.sql));
        got[t].resize(items.size() * rounds);
        for (int r = 0; r < rounds; ++r) {
          for (size_t k = 0; k < items.size(); ++k) {
            size_t i = (k * 7 + static_cast<size_t>(t) * 3 + static_cast<size_t>(r)) % items.size();
            got[t][r * items.size() + i] = run(items[i], &prepared[i]);
          }
        }
      } catch (const std::exception& e) {
        errors[t] = e.what();
      }
    });
  }
  pool.emplace_back([&] {
    try {
      for (int r = 0; r < rounds * 3; ++r) {
        engine.execute("INSERT INTO log VALUES (" + std::to_string(r % 4) + ", " +
                       std::to_string(r) + ")");
      }
    } catch (const std::exception& e) {
      errors[threads] = e.what();
    }
  });
  for (auto& thread : pool) thread.join();
  for (const auto& e : errors) CHECK(e == "");
  for (int t = 0; t < threads; ++t) {
    for (int r = 0; r < rounds; ++r) {
      for (size_t i = 0; i < items.size(); ++i) {
        CAPTURE(items[i].sql);
        CHECK(got[t][r * items.size() + i] == expected[i]);
      }
    }
  }
  ResultSet log = engine.execute("SELECT COUNT(*) AS n, SUM(round) AS s FROM log");
  CHECK(log.get_int64(0, 0) == rounds * 3);
  CHECK(log.get_int64(0, 1) == (rounds * 3) * (rounds * 3 - 1) / 2);
}

}  // namespace tally::test
