#include "runtime/result/result.h"

#include <charconv>

#include "compiler/common/decimal.h"
#include "compiler/eval/evaluator.h"

namespace tally {

std::string Result::cell_text(size_t row, size_t column) const {
  return format_value(rows[row][column], types[column], strings.get());
}

bool Result::spelled_in_place(size_t column) const {
  const Type& t = types[column];
  return (t.is_integer() && !rows.column(column).wide()) || t.is_decimal();
}

std::vector<bool> Result::columns_spelled_in_place() const {
  std::vector<bool> in_place(types.size());
  for (size_t c = 0; c < in_place.size(); ++c) in_place[c] = spelled_in_place(c);
  return in_place;
}

void Result::append_cell_text(std::string& out, size_t row, size_t column) const {
  const ResultColumn& cells = rows.column(column);
  if (!spelled_in_place(column) || cells.is_null(row)) {
    out += cell_text(row, column);
  } else if (types[column].is_decimal()) {
    append_decimal(out, cells.wide() ? cells.cells()[row] : cells.word(row), types[column].scale);
  } else {
    char digits[24];
    out.append(digits, std::to_chars(digits, digits + sizeof digits, cells.word(row)).ptr);
  }
}

Result text_result(std::vector<std::string> names,
                   const std::vector<std::vector<std::string>>& rows) {
  Result result;
  result.types.assign(names.size(), Type::varchar());
  result.names = std::move(names);
  result.rows = ResultRows(result.types);
  for (const auto& texts : rows) {
    std::vector<Value> row;
    for (const std::string& text : texts)
      row.push_back(Value::from_int(result.strings->intern(text)));
    result.rows.push_back(row);
  }
  return result;
}

}  // namespace tally
