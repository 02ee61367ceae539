#include "runtime/result/result.h"

#include "compiler/eval/evaluator.h"

namespace tally {

std::string Result::cell_text(size_t row, size_t column) const {
  return format_value(rows[row][column], types[column], strings.get());
}

}  // namespace tally
