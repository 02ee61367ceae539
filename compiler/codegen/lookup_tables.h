// The host half of the GPU's lookups (gpu_program.h DictLookup): every table a program
// reads by dictionary code or string-domain id, computed with the CPU evaluator so the
// device agrees with the CPU engine value for value, and the string domains themselves
// (compiler/plan/string_domain.h). Plain data in, plain data out: the runtime uploads the
// tables and decodes domain ids with the strings.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "compiler/codegen/gpu_program.h"
#include "compiler/common/string_heap.h"

namespace tally {

// An entry's state, as the device reads it (cuda_expr.cpp read_lookup).
enum LookupState : uint8_t { kLookupValue = 0, kLookupNull = 1, kLookupFailed = 2 };

struct LookupTable {
  std::vector<Value> values;    // per entry; a string leaf's are domain ids
  std::vector<uint8_t> states;  // LookupState per entry
};

struct LookupTables {
  std::vector<LookupTable> tables;            // per program lookup
  std::vector<std::vector<int64_t>> domains;  // per string domain: its strings (heap ids) by id
  std::string error;  // the first evaluation failure (raised only where a row reaches it)
};

// The dictionary of a scan column (VARCHAR columns only are asked for).
using DictionaryOf = std::function<const std::vector<std::string>&(int scan_column)>;

// Throws Error(Internal) when a domain outgrows the bound its program was generated with.
LookupTables build_lookup_tables(const GpuProgram& program, const BoundSelect& query,
                                 const DictionaryOf& dictionary,
                                 const std::vector<Value>& parameters, StringHeap& strings);

}  // namespace tally
