#include "runtime/result/result.h"

#include "compiler/eval/evaluator.h"

namespace tally {

std::string Result::cell_text(size_t row, size_t column) const {
  return format_value(rows[row][column], types[column], strings.get());
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
