#include "tools/data/generated_data.h"

#include "tools/data/paper_tables.h"
#include "tools/data/tpch_lineitem.h"

namespace tally {

namespace {
constexpr uint32_t kOrdersZipCount = 1000;
constexpr uint64_t kAtableKeyRange = uint64_t{1} << 20;
}  // namespace

void add_generated_tables(const GeneratedData& data, Database& db) {
  if (data.tpch_sf > 0) db.put_table(generate_lineitem(data.tpch_sf, data.seed));
  if (data.orders_rows > 0) {
    db.put_table(generate_orders_table(data.orders_rows, kOrdersZipCount, data.seed));
  }
  if (data.atable_rows > 0) {
    db.put_table(generate_atable(data.atable_rows, kAtableKeyRange, data.zipf, data.seed));
  }
}

}  // namespace tally
