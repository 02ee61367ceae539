#include "tools/data/generated_data.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <string>
#include <vector>

#include "runtime/storage/host_memory.h"
#include "tools/data/paper_tables.h"
#include "tools/data/tpch_lineitem.h"

namespace tally {

namespace {

constexpr uint32_t kOrdersZipCount = 1000;
constexpr uint64_t kAtableKeyRange = uint64_t{1} << 20;

// Peak host memory while generating, measured with `tally run --device cpu` at SF 1 and
// 4-8 M rows: about 800 MiB per TPC-H scale factor, 40 B per atable or orders row.
constexpr uint64_t kBytesPerTpchScale = uint64_t{800} << 20;
constexpr uint64_t kBytesPerPaperRow = 40;

uint64_t estimated_bytes(const GeneratedData& data) {
  return static_cast<uint64_t>(data.tpch_sf * static_cast<double>(kBytesPerTpchScale)) +
         (data.orders_rows + data.atable_rows) * kBytesPerPaperRow;
}

std::string describe(const GeneratedData& data) {
  std::vector<std::string> parts;
  if (data.tpch_sf > 0) parts.push_back(fmt::format("TPC-H SF {}", data.tpch_sf));
  if (data.orders_rows > 0) parts.push_back(fmt::format("orders of {} rows", data.orders_rows));
  if (data.atable_rows > 0) parts.push_back(fmt::format("atable of {} rows", data.atable_rows));
  return fmt::format("generating {}", fmt::join(parts, " and "));
}

void add_tables(const GeneratedData& data, Database& db) {
  if (data.tpch_sf > 0) db.put_table(generate_lineitem(data.tpch_sf, data.seed));
  if (data.orders_rows > 0) {
    db.put_table(generate_orders_table(data.orders_rows, kOrdersZipCount, data.seed));
  }
  if (data.atable_rows > 0) {
    db.put_table(generate_atable(data.atable_rows, kAtableKeyRange, data.zipf, data.seed));
  }
}

}  // namespace

void require_memory_to_generate(const GeneratedData& data) {
  if (data.any()) require_host_memory(estimated_bytes(data), describe(data));
}

void add_generated_tables(const GeneratedData& data, Database& db) {
  if (!data.any()) return;
  require_memory_to_generate(data);
  reporting_out_of_memory(describe(data), [&] { add_tables(data, db); });
}

}  // namespace tally
