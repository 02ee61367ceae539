// A row program (compiler/codegen/row_program.h) run on the host exactly as the interpreter's
// Scan runs it (templates/tally_interp.cuh, over the device layout of the columns), its groups
// finished as a device run's are (runtime/gpu/interpreted_scan.h): the interpreter's result
// without a GPU, for tests/unit/row_program_test.cpp and row_program_random_test.cpp.
#pragma once

#include <algorithm>
#include <cstdint>
#include <map>
#include <memory>
#include <set>
#include <tuple>
#include <vector>

#include "compiler/codegen/row_program.h"
#include "compiler/common/error.h"
#include "runtime/gpu/device_layout.h"
#include "runtime/gpu/interpreted_scan.h"
#include "runtime/gpu/rank_select.h"
#include "runtime/result/result_builder.h"
#include "runtime/storage/table.h"

namespace tally::test {

// One state field's merge, as templates/tally_interp_kernel.cuh's (tally_interp.cuh's
// field_input and merge_field_value); the DISTINCT set's fields: the caller keeps the values.
inline void merge_field(const tally_interp::Field& f, const int64_t* r, const bool* n,
                        int128& cell) {
  if (f.op == tally_interp::kFieldDistinct || f.op == tally_interp::kFieldUnused) return;
  bool skip = false;
  const int128 v =
      tally_interp::field_input(f, reinterpret_cast<const tally_interp::i64*>(r), n, &skip);
  if (!skip) cell = tally_interp::merge_field_value(f.op, cell, v);
}

// What the device's selection of a large result keeps of `groups` (RowProgram::selects_top,
// runtime/gpu/interpreted_top.h): those ranked at or before the k-th.
inline void keep_selected_groups(const RowProgram& p, const tally_interp::Program& program,
                                 uint64_t needed, std::map<uint64_t, std::vector<int128>>& groups) {
  std::vector<uint64_t> ranks;
  for (const auto& [group, cells] : groups) {
    auto cell = [&](int f) { return static_cast<tally_interp::i64>(cells[f]); };
    ranks.push_back(tally_interp::group_rank(program, p.top, group, cell));
  }
  const RankSelect select = select_ranks_on_host(ranks, needed);
  size_t i = 0;
  for (auto it = groups.begin(); it != groups.end(); ++i) {
    it = ranks[i] > select.threshold() ? groups.erase(it) : std::next(it);
  }
}

// The program over every row of `table` on the host, its columns in the device layout. A row
// that divides by zero (tally_interp::row_faults) stops the run, as it takes a device run to
// the statement's own kernels: `*faulted` is set and the result is empty.
inline Result run_row_program_on_host(
    const RowProgram& p, const BoundSelect& q, const Table& table,
    const std::vector<Value>& parameters = {},
    std::shared_ptr<StringHeap> strings = std::make_shared<StringHeap>(), bool* faulted = nullptr) {
  std::vector<std::vector<uint32_t>> words;
  std::vector<tally_interp::Column> columns;
  for (const RowProgramColumn& c : p.columns) {
    const Column& column = *table.columns[q.scan[c.scan_column].table_column];
    const void* data = column.plain_bytes().data();
    if (c.kind == tally_interp::kColBitPacked) {
      words.push_back(lane_transposed_words(column.packed_words(), table.rows(), c.bits));
      words.back().resize(words.back().size() + 128, 0);  // the device's padding
      data = words.back().data();
    }
    const auto& validity = column.validity_words();
    columns.push_back(tally_interp::Column{
        data,
        validity.empty() ? nullptr : reinterpret_cast<const tally_interp::u64*>(validity.data()),
        c.base, c.bits, static_cast<uint32_t>(c.kind)});
  }
  const tally_interp::Program program{p.instrs.data(),
                                      columns.data(),
                                      p.keys.data(),
                                      p.fields.data(),
                                      p.lookups.data(),
                                      static_cast<int>(p.instrs.size()),
                                      static_cast<int>(p.keys.size()),
                                      static_cast<int>(p.fields.size()),
                                      p.filter,
                                      p.faults ? 1 : 0};
  std::map<uint64_t, std::vector<int128>> groups;
  std::set<std::tuple<uint64_t, uint32_t, int64_t>> distinct;
  int64_t r[tally_interp::kMaxRegisters];
  bool n[tally_interp::kMaxRegisters], fault[tally_interp::kMaxRegisters];
  auto* regs = reinterpret_cast<tally_interp::i64*>(r);
  for (uint64_t row = 0; row < table.rows(); ++row) {
    tally_interp::run_row(program, row, regs, n, fault);
    if (tally_interp::row_faults(program, regs, n, fault)) {
      if (faulted == nullptr) throw Error(ErrorKind::Internal, "a row divides by zero");
      *faulted = true;
      return Result();
    }
    if (!tally_interp::row_passes(program, regs, n)) continue;
    auto [it, fresh] = groups.try_emplace(tally_interp::row_group(program, regs, n));
    if (fresh) {
      for (const auto& f : p.fields) it->second.push_back(tally_interp::field_initial(f.op));
    }
    for (size_t f = 0; f < p.fields.size(); ++f) {
      const tally_interp::Field& field = p.fields[f];
      merge_field(field, r, n, it->second[f]);
      if (field.op == tally_interp::kFieldDistinct && !n[field.reg])
        distinct.emplace(it->first, static_cast<uint32_t>(f), r[field.reg]);
    }
  }
  if (p.selects_top) keep_selected_groups(p, program, rows_needed(q, parameters), groups);
  std::vector<uint64_t> numbers;
  std::vector<int128> cells;
  for (const auto& [group, row_cells] : groups) {
    numbers.push_back(group);
    cells.insert(cells.end(), row_cells.begin(), row_cells.end());
  }
  std::vector<DistinctValue> values;
  for (const auto& [group, field, value] : distinct) values.push_back({group, field, value});
  return finish_interpreted(p, q, table, numbers, cells, values, std::move(strings), parameters);
}

}  // namespace tally::test
