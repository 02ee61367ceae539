// The tables the CLI generates from its data options (--tpch, --orders, --atable, --zipf,
// --seed). A prepared statement records these so that `tally exec` in a later process
// builds the same tables (same seed, same statistics, so the same generated kernels).
#pragma once

#include <cstdint>
#include <string>

#include "runtime/session/database.h"

namespace tally {

struct GeneratedData {
  double tpch_sf = 0;        // lineitem at this TPC-H scale factor
  uint64_t orders_rows = 0;  // the seed paper's Query A table orders
  uint64_t atable_rows = 0;  // the seed paper's Query B table atable
  double zipf = 0;           // Zipf exponent of atable.col1 (0: uniform)
  uint64_t seed = 0;
  // A database folder to open before generating (--db): its tables are read, not made.
  std::string database{};

  bool any() const { return tpch_sf > 0 || orders_rows > 0 || atable_rows > 0; }
  bool operator==(const GeneratedData&) const = default;
};

// Generates the tables `data` names and puts them into `db`. Throws Error(OutOfMemory)
// before starting when the estimated memory is more than the process may take.
void add_generated_tables(const GeneratedData& data, Database& db);

// Throws that Error(OutOfMemory) alone (for `tally gen`, which writes files).
void require_memory_to_generate(const GeneratedData& data);

}  // namespace tally
