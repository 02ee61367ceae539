// Per-thread tables (the ThreadPrivate strategy): each thread keeps its own accumulator per
// (group slot, state field), in registers or in its cells of a block's shared buffer, and a
// block merges them into the global states once. An accumulator is as narrow as the
// statistics allow for the rows one thread sums, and narrow non-negative sums in shared
// memory share 64-bit words (thread_cell_packing.h).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "compiler/plan/state_layout.h"
#include "compiler/plan/thread_cell_packing.h"

namespace tally {

enum class CellType : uint8_t { U32, I32, U64, I64, I128, F64 };
const char* cell_type_name(CellType type);  // as the device library spells it: "u32", ...
int cell_bytes(CellType type);

struct ThreadTables {
  std::vector<CellType> cells;  // per state field: one thread's accumulator
  PackedCells packed;           // in shared memory: which fields share 64-bit words
  uint64_t shared_bytes = 0;    // in shared memory: the block's buffer
};

// The most rows one lane sums: its warp visits at most ceil(blocks / warps) of the 1024-row
// blocks, and takes 32 rows of each.
uint64_t rows_per_lane(uint64_t rows, uint32_t grid, uint32_t block);

// The tables of a grid of `grid` blocks of `block` threads over `rows` rows and `slots`
// group slots, in registers or (`in_shared`) in shared memory.
ThreadTables plan_thread_tables(const StateLayout& layout, const BoundSelect& query,
                                const std::vector<ColumnStats>& stats, uint64_t rows, uint32_t grid,
                                uint32_t block, uint64_t slots, bool in_shared);

// The Block strategy's table: one accumulator per (group slot, state field) in the block's
// shared memory, merged with shared atomics and flushed to the global states once per block,
// each as narrow as the rows one block sums allow. Second-pass fields have no cell. `fits`
// is false where a field needs a 128-bit accumulator: no shared atomic is that wide.
struct BlockTable {
  std::vector<CellType> cells;  // per state field
  PackedCells packed;           // which fields share 64-bit words (none unless packed)
  uint64_t shared_bytes = 0;    // the block's table, all fields
};

// The same table with its row count and non-negative integer sums sharing 64-bit words, each
// field as many bits as a block's rows can add up (one atomic a word, not one a field), where
// that packs two or more fields; else `table` as it was. Sliced plans take it where the
// unpacked table does not fit: more slots a slice, fewer passes over the rows.
BlockTable pack_block_table(BlockTable table, const StateLayout& layout, const BoundSelect& query,
                            const std::vector<ColumnStats>& stats, uint64_t rows, uint32_t grid,
                            uint32_t block, uint64_t slots);

// A cell's value before any row: its field's identity, or for an integer MIN or MAX narrowed
// to `cell`, that type's greatest or least value, which no value the statistics allow reaches.
// A cell that keeps it merges a value every row's beats; MIN's count says NULL where none did.
std::string cell_identity(FieldKind kind, CellType cell);

// Whether a cell of the table is 128 bits wide.
bool has_wide_cells(const BlockTable& table);

BlockTable plan_block_table(const StateLayout& layout, const BoundSelect& query,
                            const std::vector<ColumnStats>& stats, uint64_t rows, uint32_t grid,
                            uint32_t block, uint64_t slots);

}  // namespace tally
