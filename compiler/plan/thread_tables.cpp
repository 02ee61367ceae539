#include "compiler/plan/thread_tables.h"

#include <algorithm>
#include <climits>
#include <cmath>

#include "compiler/common/error.h"
#include "compiler/plan/value_bounds.h"

namespace tally {

const char* cell_type_name(CellType type) {
  switch (type) {
    case CellType::U32:
      return "u32";
    case CellType::I32:
      return "i32";
    case CellType::U64:
      return "u64";
    case CellType::I64:
      return "i64";
    case CellType::I128:
      return "i128";
    case CellType::F64:
      return "f64";
  }
  return "?";
}

int cell_bytes(CellType type) {
  switch (type) {
    case CellType::U32:
    case CellType::I32:
      return 4;
    case CellType::I128:
      return 16;
    default:
      return 8;
  }
}

uint64_t rows_per_lane(uint64_t rows, uint32_t grid, uint32_t block) {
  const uint64_t warps = std::max<uint64_t>(uint64_t{grid} * block / 32, 1);
  const uint64_t blocks = (rows + 1023) / 1024;
  return std::max<uint64_t>(32 * ((blocks + warps - 1) / warps), 1);
}

namespace {

CellType field_cell(FieldKind kind) {
  const std::string type = field_info(kind).cuda_type;
  if (type == "u64") return CellType::U64;
  if (type == "i64") return CellType::I64;
  if (type == "i128") return CellType::I128;
  if (type == "f64") return CellType::F64;
  throw Error(ErrorKind::Internal, "a state field of unknown type " + type);
}

bool is_extremum(FieldKind kind) {
  return kind == FieldKind::MinI64 || kind == FieldKind::MaxI64 || kind == FieldKind::MinI128 ||
         kind == FieldKind::MaxI128;
}

// An integer MIN or MAX in the narrowest cell whose own extremes lie strictly outside every
// value the statistics allow, so that a cell no row reached (cell_identity) loses to any
// value. MIN(l_quantity) of DECIMAL(15,2) takes an i32 where its field is an i128: 1 register,
// not 4, and a native shared atomic.
CellType extremum_cell(const StateField& field, const BoundSelect& query,
                       const std::vector<ColumnStats>& stats) {
  const ValueBounds b = value_bounds(*query.aggregates[field.aggregate].arg, stats);
  auto inside = [&](long double lo, long double hi) { return b.known && b.lo > lo && b.hi < hi; };
  if (inside(INT32_MIN, INT32_MAX)) return CellType::I32;
  if (inside(static_cast<long double>(INT64_MIN), static_cast<long double>(INT64_MAX))) {
    return CellType::I64;
  }
  return field_cell(field.kind);
}

// The narrowest integer the statistics prove one thread's rows (and then a warp's sum of
// them) cannot overflow: fewer registers a thread, more threads resident.
CellType accumulator(const StateField& field, const BoundSelect& query,
                     const std::vector<ColumnStats>& stats, uint64_t lane_rows) {
  const long double warp_rows_bits =
      std::log2(static_cast<long double>(lane_rows)) + 5;  // 5: 32 lanes of a warp
  if (field.kind == FieldKind::Count) return warp_rows_bits < 31 ? CellType::U32 : CellType::U64;
  if (is_extremum(field.kind)) return extremum_cell(field, query, stats);
  const bool square = field.kind == FieldKind::SumSqI128;
  // A split square's parts stay below 2^(magnitude + 1) (state_layout.h square_split_bits).
  const bool split = field.kind == FieldKind::SumSqHighI128 ||
                     field.kind == FieldKind::SumSqCrossI128 ||
                     field.kind == FieldKind::SumSqLowI128;
  if (field.kind != FieldKind::SumI128 && !square && !split) return field_cell(field.kind);
  const long double magnitude = magnitude_log2(*query.aggregates[field.aggregate].arg, stats);
  const long double bits = (square  ? 2 * magnitude
                            : split ? std::ceil(magnitude) + 1
                                    : magnitude) +
                           warp_rows_bits;
  if (bits < 30) return CellType::I32;
  return bits < 62 ? CellType::I64 : CellType::I128;
}

// Each field's bits in a packed word that sums it over `rows` rows (lane_sum_bits), or 0 where
// it does not pack. A row count and sums whose argument the statistics bound below by 0 pack;
// both are first-pass fields, the only ones thread and block tables keep.
std::vector<uint32_t> packable_bits(const StateLayout& layout, const BoundSelect& query,
                                    const std::vector<ColumnStats>& stats, uint64_t rows) {
  std::vector<uint32_t> bits(layout.fields.size(), 0);
  for (size_t f = 0; f < bits.size(); ++f) {
    const long double top =
        layout.fields[f].kind == FieldKind::Count ? 1 : nonnegative_top(layout, f, query, stats);
    if (top >= 0) bits[f] = lane_sum_bits(top, rows);
  }
  return bits;
}

}  // namespace

ThreadTables plan_thread_tables(const StateLayout& layout, const BoundSelect& query,
                                const std::vector<ColumnStats>& stats, uint64_t rows, uint32_t grid,
                                uint32_t block, uint64_t slots, bool in_shared) {
  ThreadTables t;
  const uint64_t lane_rows = rows_per_lane(rows, grid, block);
  for (const StateField& f : layout.fields)
    t.cells.push_back(accumulator(f, query, stats, lane_rows));
  t.packed.place.resize(layout.fields.size());
  if (!in_shared) return t;
  t.packed = pack_thread_cells(packable_bits(layout, query, stats, lane_rows));
  uint64_t cell_bytes_total = 8ull * t.packed.words;
  for (size_t f = 0; f < t.cells.size(); ++f) {
    if (t.packed.place[f].word < 0) cell_bytes_total += cell_bytes(t.cells[f]);
  }
  t.shared_bytes = cell_bytes_total * slots * block;
  return t;
}

std::string cell_identity(FieldKind kind, CellType cell) {
  const bool min = kind == FieldKind::MinI64 || kind == FieldKind::MinI128;
  if (is_extremum(kind) && cell == CellType::I32) return min ? "kI32Max" : "kI32Min";
  if (is_extremum(kind) && cell == CellType::I64) return min ? "kI64Max" : "kI64Min";
  return field_info(kind).identity;
}

bool has_wide_cells(const BlockTable& table) {
  return std::find(table.cells.begin(), table.cells.end(), CellType::I128) != table.cells.end();
}

BlockTable plan_block_table(const StateLayout& layout, const BoundSelect& query,
                            const std::vector<ColumnStats>& stats, uint64_t rows, uint32_t grid,
                            uint32_t block, uint64_t slots) {
  BlockTable t;
  // accumulator() adds a warp's 32 lanes to what it is given: a block's rows are its warps'.
  const uint64_t warp_lane_rows =
      rows_per_lane(rows, grid, block) * std::max<uint32_t>(block / 32, 1);
  uint64_t bytes_per_slot = 0;
  // 128-bit cells (wide sums, wide MIN/MAX, ARG_MIN's pairs) merge in shared memory as in
  // global: two 64-bit adds with a carry, or sm_90's 16-byte compare-and-swap.
  for (const StateField& f : layout.fields) {
    const CellType cell = accumulator(f, query, stats, warp_lane_rows);
    t.cells.push_back(cell);
    if (field_info(f.kind).second_pass) continue;
    bytes_per_slot += static_cast<uint64_t>(cell_bytes(cell));
  }
  t.shared_bytes = bytes_per_slot * slots;
  return t;
}

BlockTable pack_block_table(BlockTable table, const StateLayout& layout, const BoundSelect& query,
                            const std::vector<ColumnStats>& stats, uint64_t rows, uint32_t grid,
                            uint32_t block, uint64_t slots) {
  const uint64_t block_rows = rows_per_lane(rows, grid, block) * block;
  PackedCells packed = pack_thread_cells(packable_bits(layout, query, stats, block_rows));
  if (packed.words == 0) return table;
  uint64_t bytes_per_slot = 8ull * packed.words;
  for (size_t f = 0; f < table.cells.size(); ++f) {
    if (packed.place[f].word < 0 && !field_info(layout.fields[f].kind).second_pass) {
      bytes_per_slot += static_cast<uint64_t>(cell_bytes(table.cells[f]));
    }
  }
  table.packed = std::move(packed);
  table.shared_bytes = bytes_per_slot * slots;
  return table;
}

}  // namespace tally
