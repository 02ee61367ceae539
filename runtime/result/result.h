// A query result: named, typed columns (runtime/result/result_rows.h holds them a column at a
// time, read as rows of Values). VARCHAR values are ids into `strings`.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "compiler/common/string_heap.h"
#include "compiler/common/types.h"
#include "compiler/common/value.h"
#include "runtime/result/result_rows.h"

namespace tally {

struct Result {
  std::vector<std::string> names;
  std::vector<Type> types;
  ResultRows rows;
  std::shared_ptr<StringHeap> strings = std::make_shared<StringHeap>();
  std::string device;  // which engine produced it: "cpu", or "gpu: <device name>"

  // The text of one cell as the table/CSV formats print it ("NULL" for NULL).
  std::string cell_text(size_t row, size_t column) const;
  // The same text appended to `out`, integers and DECIMALs spelled in place (no string a
  // cell): a formatter's loop over millions of cells.
  void append_cell_text(std::string& out, size_t row, size_t column) const;
  // Whether append_cell_text spells this column's cells in place: their text is a sign, digits
  // and a point.
  bool spelled_in_place(size_t column) const;
  // spelled_in_place of every column, for a formatter to look up per cell.
  std::vector<bool> columns_spelled_in_place() const;
};

// A result of VARCHAR columns (SHOW, DESCRIBE, EXPLAIN print theirs as rows).
Result text_result(std::vector<std::string> names,
                   const std::vector<std::vector<std::string>>& rows);

}  // namespace tally
