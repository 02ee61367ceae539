#include "compiler/codegen/cuda_columns.h"

#include <fmt/format.h>

#include <algorithm>

namespace tally {

std::string column_payload(const ColumnStats& s, const std::string& data) {
  if (s.layout == ColumnStats::Layout::BitPacked) {
    return fmt::format("BitPackedColumn{{{}, {}ll, {}u}}.get(row)", data, s.base, s.bits);
  }
  return fmt::format("load_ro({} + row)", data);
}

std::string column_value(const Type& t, const std::string& value_type, const std::string& payload) {
  if (t.id == TypeId::Boolean) return fmt::format("({}) != 0", payload);
  return fmt::format("({})({})", value_type, payload);
}

std::string column_null(const ColumnStats& s, const std::string& validity) {
  if (!s.has_nulls) return "false";
  return fmt::format("!Validity{{{}}}.valid(row)", validity);
}

std::string decoded_declarations(const std::vector<int>& columns,
                                 const std::vector<ColumnNames>& names,
                                 const CudaExprEmitter& emitter, const std::vector<int>& held_i32) {
  std::string d;
  for (int c : columns) {
    const bool narrow = std::find(held_i32.begin(), held_i32.end(), c) != held_i32.end();
    d += fmt::format("{} {}[2]; bool {}[2];\n", narrow ? "i32" : emitter.column_type(c),
                     names[c].held, names[c].held_null);
  }
  return d;
}

std::string decoded_row(const std::vector<int>& columns, const std::vector<ColumnNames>& names,
                        const CudaExprEmitter& emitter) {
  std::string d;
  for (int c : columns) {
    const ColumnNames& n = names[c];
    d += fmt::format("const {} {} = {}[half]; const bool {} = {}[half];\n", emitter.column_type(c),
                     n.value, n.held, n.null, n.held_null);
    d += fmt::format("(void){}; (void){};\n", n.value, n.null);
  }
  return d;
}

}  // namespace tally
