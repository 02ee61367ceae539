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

std::string decoded_declarations(const std::vector<int>& columns, const CudaExprEmitter& emitter,
                                 const std::vector<int>& held_i32) {
  std::string d;
  for (int c : columns) {
    const bool narrow = std::find(held_i32.begin(), held_i32.end(), c) != held_i32.end();
    d += fmt::format("    {} c{}_h[2]; bool c{}_nh[2];\n", narrow ? "i32" : emitter.column_type(c),
                     c, c);
  }
  return d;
}

std::string decoded_row(const std::vector<int>& columns, const CudaExprEmitter& emitter,
                        const std::string& indent) {
  std::string d;
  for (int c : columns) {
    d += fmt::format("{0}const {1} c{2} = c{2}_h[half]; const bool c{2}_n = c{2}_nh[half];\n",
                     indent, emitter.column_type(c), c);
    d += fmt::format("{0}(void)c{1}; (void)c{1}_n;\n", indent, c);
  }
  return d;
}

}  // namespace tally
