// Generated tables (tools/data) in a library Engine, for tests. The installed library
// carries no generators, so tests put the tables into the Engine's Database directly.
#pragma once

#include <cstdint>
#include <mutex>

#include "api/engine_impl.h"
#include "tools/data/generated_data.h"
#include "tools/data/tpch_lineitem.h"

namespace tally::test {

// The tables the tally command's data options name (--tpch, --orders, --atable, --zipf,
// --seed), generated exactly as the command does.
inline void register_generated(Engine& engine, const GeneratedData& data) {
  std::unique_lock lock(engine.impl().tables_mutex);
  add_generated_tables(data, engine.impl().database);
}

// TPC-H lineitem; a scale factor that is not positive is an Error.
inline void register_tpch_lineitem(Engine& engine, double scale_factor, uint64_t seed = 0) {
  TablePtr table = generate_lineitem(scale_factor, seed);
  std::unique_lock lock(engine.impl().tables_mutex);
  engine.impl().database.put_table(std::move(table));
}

}  // namespace tally::test
