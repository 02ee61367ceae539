// The interpreted tier: a statement as data for one precompiled Scan (templates/tally_interp.cuh),
// so that a new statement runs at once while NVRTC compiles its own kernels in the background
// (runtime/gpu/interpreted_scan.h). Covers aggregations whose every value is a 64-bit integer
// (integers, DECIMALs of up to 18 digits or of 16-byte columns whose values fit 64 bits, dates,
// timestamps, booleans, dictionary codes, ids of computed strings' domains) that the interval
// analysis proves cannot overflow (division and ROUND included; a row that divides by 0 sends
// the statement to its own kernels, which raise the error: RowProgram::faults), or a
// DOUBLE or REAL (compiler/codegen/row_program_float.h), with COUNT (FILTER too), SUM, MIN, MAX,
// AVG, ARG_MIN, ARG_MAX and the exact variances, DISTINCT or not (a DISTINCT
// aggregate's values go to a set on the device, from which the host builds its state); anything
// else is declined with its reason and takes the generated kernels.
#pragma once

#include <cstdint>
#include <string>
#include <variant>
#include <vector>

#include "compiler/common/string_heap.h"
#include "compiler/ir/query.h"
#include "compiler/plan/column_stats.h"
#include "compiler/plan/state_layout.h"
#include "templates/tally_interp.cuh"
#include "templates/tally_interp_rank.cuh"

namespace tally {

// The most groups the host finishes: they finish as the CPU engine's partial states, row by
// row, where 15 M groups took 21 s against 0.4 s for the generated kernels' columnar path
// (bench/RESULTS.md, interpreted tier). A statement whose keys' domain (or rows) passes it
// keeps only its first groups under ORDER BY ... LIMIT, or all of them where the run made
// few enough (RowProgram::large).
constexpr uint64_t kInterpretedGroupsMax = uint64_t{1} << 17;

struct RowProgramColumn {
  int scan_column;  // into BoundSelect::scan
  tally_interp::ColumnKind kind;
  int64_t base = 0;
  uint32_t bits = 0;
};

struct RowProgram {
  std::vector<tally_interp::Instr> instrs;
  std::vector<RowProgramColumn> columns;    // the program's column a is columns[a]
  std::vector<tally_interp::Key> keys;      // one per group key
  std::vector<tally_interp::Field> fields;  // one per field of `layout`
  std::vector<tally_interp::u64> lookups;   // per-code values of expressions over one string column
  // Computed VARCHAR values run as ids into domains of the strings they can produce, sorted
  // as the CPU engine sorts strings (compiler/plan/string_domain.h): each domain's strings by
  // id, and per group key and per aggregate the domain of its value, or -1.
  std::vector<std::vector<std::string>> domains;
  std::vector<int> key_domains, aggregate_domains;
  int filter = -1;
  int registers = 0;
  // A divisor may be 0: a row that divides by 0 takes the statement to its own kernels, which
  // raise the CPU engine's error (tally_interp::Program::faults).
  bool faults = false;
  uint64_t groups = 1;  // the keys' whole domain: the product of their sizes
  // At most how many (group, value) entries the DISTINCT aggregates put in their set (0: none).
  uint64_t distinct_values = 0;
  StateLayout layout;
  // More possible groups than the host finishes (kInterpretedGroupsMax). Under ORDER BY ...
  // LIMIT (`selects_top`) only the groups whose first ORDER BY value (`top`) ranks at or
  // before the k-th group's come back (compiler/codegen/row_program_top.h); otherwise a run that
  // makes more groups than that takes the statement's own kernels.
  bool large = false;
  bool selects_top = false;
  tally_interp::TopOrder top{-1, -1, -1, 0};
};

struct RowProgramInputs {
  const BoundSelect& query;
  const std::vector<ColumnStats>& stats;
  uint64_t rows = 0;
  const std::vector<Value>& parameters;
  // Per scan column: its dictionary (VARCHAR columns), else null.
  std::vector<const std::vector<std::string>*> dictionaries;
  // The heap the parameters' strings are in (null: they hold none), where the lookups'
  // evaluations read them.
  StringHeap* strings = nullptr;
};

// The program, or the sentence saying why the statement needs its own kernels.
std::variant<RowProgram, std::string> compile_row_program(const RowProgramInputs& in);

// Group key k's value in `group` (RowProgram::keys' mixed-radix number), or nullopt-like
// `null` set for its NULL digit.
int64_t row_program_key(const RowProgram& p, uint64_t group, size_t k, bool* null);

}  // namespace tally
