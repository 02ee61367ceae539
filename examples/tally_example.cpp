// A complete application of the tally library, built against an installed tally with
// find_package (see CMakeLists.txt here; README "Library" walks through it). It checks
// what it prints, and ends with "example: OK", so that CTest can run it.
#include <tally/tally.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <memory>
#include <vector>

namespace {

void expect(bool condition, const char* what) {
  if (!condition) {
    std::cerr << "example: FAILED: " << what << "\n";
    std::exit(1);
  }
}

// [prepared] A Q1-like report with the ship date as a parameter, run with two dates.
int64_t pricing_summary(tally::Engine& engine) {
  tally::PreparedStatement q1 = engine.prepare(
      "SELECT l_returnflag, l_linestatus, SUM(l_quantity) AS sum_qty, "
      "       AVG(l_extendedprice) AS avg_price, COUNT(*) AS count_order "
      "FROM lineitem WHERE l_shipdate <= ? "
      "GROUP BY l_returnflag, l_linestatus ORDER BY l_returnflag, l_linestatus");
  int64_t rows_before = 0;
  for (const char* date : {"1995-06-17", "1998-09-02"}) {
    tally::ResultSet r = q1.bind(1, date).execute();
    std::cout << "Q1 up to " << date << " (" << r.device() << "):\n";
    // By row: typed getters, or the text the tally command prints.
    for (size_t row = 0; row < r.row_count(); ++row) {
      std::cout << "  " << r.get_string(row, 0) << r.get_string(row, 1)
                << "  sum_qty=" << r.get_text(row, 2) << "  avg_price=" << r.get_double(row, 3)
                << "  count=" << r.get_int64(row, r.column_index("count_order")) << "\n";
    }
    // By column: NULLs are empty optionals.
    int64_t rows = 0;
    for (const auto& count : r.int64_column(r.column_index("count_order"))) rows += count.value();
    expect(rows >= rows_before, "a later date selects at least as many rows");
    rows_before = rows;
  }
  return rows_before;
}
// [prepared]

// [arrow-import] Caller-owned columns handed over as an Arrow struct array (what Arrow,
// DuckDB or Polars export). The int64 and float64 buffers are used in place (zero-copy);
// the release callback runs when no table or query needs them any more.
struct Prices {
  std::vector<int64_t> item{1, 2, 3, 1, 2};
  std::vector<double> price{9.5, 20.0, 7.25, 10.5, 0.0};
  std::vector<uint8_t> price_valid{0b01111};  // Arrow's LSB bitmap: row 4's price is NULL
  const void* item_buffers[2] = {nullptr, item.data()};
  const void* price_buffers[2] = {price_valid.data(), price.data()};
  const void* batch_buffers[1] = {nullptr};
  ArrowArray columns[2];
  ArrowArray* children[2] = {&columns[0], &columns[1]};
  bool* released = nullptr;
};

void release_column(ArrowArray* column) { column->release = nullptr; }  // Prices owns it
void release_batch(ArrowArray* batch) {
  auto* prices = static_cast<Prices*>(batch->private_data);
  for (ArrowArray* column : prices->children) column->release(column);
  *prices->released = true;
  delete prices;
  batch->release = nullptr;
}
void release_schema(ArrowSchema* schema) { schema->release = nullptr; }  // on the stack

void import_prices(tally::Engine& engine, bool* released) {
  auto* prices = new Prices();
  prices->released = released;
  prices->columns[0] = {5,      0, 0, 2, 0, prices->item_buffers, nullptr, nullptr, release_column,
                        nullptr};
  prices->columns[1] = {5,      1, 0, 2, 0, prices->price_buffers, nullptr, nullptr, release_column,
                        nullptr};
  ArrowArray batch{
      5, 0, 0, 1, 2, prices->batch_buffers, prices->children, nullptr, release_batch, prices};
  ArrowSchema item{"l", "item", nullptr, 0, 0, nullptr, nullptr, release_schema, nullptr};
  ArrowSchema price{"g",     "price",        nullptr, ARROW_FLAG_NULLABLE, 0, nullptr,
                    nullptr, release_schema, nullptr};
  ArrowSchema* fields[2] = {&item, &price};
  ArrowSchema schema{"+s", "", nullptr, 0, 2, fields, nullptr, release_schema, nullptr};
  engine.register_arrow_table("prices", &schema, &batch);  // takes both structs
  expect(batch.release == nullptr && schema.release == nullptr, "the engine took the batch");
}
// [arrow-import]

// [arrow-export] A result as an Arrow struct array, read back through the C structs.
void export_totals(tally::Engine& engine) {
  tally::ResultSet totals = engine.execute(
      "SELECT item, SUM(price) AS total, COUNT(price) AS priced FROM prices GROUP BY item "
      "ORDER BY item");
  ArrowSchema schema;
  ArrowArray array;
  totals.export_arrow(&schema, &array);
  expect(std::strcmp(schema.format, "+s") == 0 && array.n_children == 3, "a struct of 3");
  expect(std::strcmp(schema.children[1]->format, "g") == 0, "SUM(DOUBLE) is a float64");
  const auto* item = static_cast<const int64_t*>(array.children[0]->buffers[1]);
  const auto* total = static_cast<const double*>(array.children[1]->buffers[1]);
  for (int64_t row = 0; row < array.length; ++row) {
    std::cout << "  item " << item[row] << ": total " << total[row] << "\n";
  }
  expect(array.length == 3 && item[0] == 1 && total[0] == 20.0, "item 1 totals 9.5 + 10.5");
  expect(total[1] == 20.0, "item 2's NULL price is skipped");
  array.release(&array);
  schema.release(&schema);
}
// [arrow-export]

}  // namespace

int main() {
  bool released = false;
  try {
    // [engine]
    tally::EngineOptions options;
    options.device = tally::Device::Auto;  // the GPU when there is one, else the CPU
    tally::Engine engine(options);
    // A script runs statement by statement (COPY lineitem FROM 'file.csv' loads a file).
    engine.execute(
        "CREATE TABLE lineitem (l_returnflag CHAR(1), l_linestatus CHAR(1),"
        "  l_quantity DECIMAL(15,2), l_extendedprice DECIMAL(15,2), l_shipdate DATE);"
        "INSERT INTO lineitem VALUES"
        "  ('N', 'O', 17, 21168.23, '1996-03-13'), ('N', 'O', 36, 45983.16, '1996-04-12'),"
        "  ('R', 'F',  8, 13309.60, '1994-02-02'), ('A', 'F', 28, 28955.64, '1993-10-29'),"
        "  ('N', 'F', 45, 54058.05, '1995-06-01'), ('R', 'F', 49, 46796.47, '1992-04-27'),"
        "  ('N', 'O', 24, 22824.48, '1998-10-30')");
    tally::ResultSet all = engine.execute("SELECT COUNT(*) AS n FROM lineitem");
    int64_t lineitems = all.get_int64(0, 0);
    // [engine]
    std::cout << "lineitem rows: " << lineitems << "\n";
    int64_t shipped = pricing_summary(engine);
    expect(shipped > 0 && shipped <= lineitems, "Q1 counts part of lineitem");

    import_prices(engine, &released);
    export_totals(engine);
    engine.drop_table("prices");

    // [errors]
    try {
      engine.execute("SELECT l_quantiti FROM lineitem");
    } catch (const tally::Error& e) {
      std::cout << tally::error_kind_name(e.kind()) << ": " << e.what() << "\n";
      expect(e.kind() == tally::ErrorKind::Binder, "an unknown column is a binder error");
    }
    // [errors]
  } catch (const tally::Error& e) {
    std::cerr << "example: FAILED: " << tally::error_kind_name(e.kind()) << ": " << e.what()
              << "\n";
    return 1;
  }
  // The GPU engine keeps the columns it uploaded until the Engine is gone: by now the
  // Arrow array has been released on any device.
  expect(released, "the Arrow array was released");
  std::cout << "example: OK\n";
  return 0;
}
