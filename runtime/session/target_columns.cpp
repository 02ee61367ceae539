#include "runtime/session/target_columns.h"

#include <fmt/format.h>

#include <algorithm>

#include "compiler/common/error.h"

namespace tally {

std::vector<int> target_columns(const std::vector<std::string>& names, const TableSchema& schema) {
  std::vector<int> targets;
  if (names.empty()) {
    for (size_t i = 0; i < schema.columns.size(); ++i) targets.push_back(static_cast<int>(i));
    return targets;
  }
  for (const auto& name : names) {
    int index = schema.find_column(name);
    if (index < 0) {
      throw Error(ErrorKind::Binder,
                  fmt::format("column \"{}\" of table \"{}\" does not exist", name, schema.name));
    }
    if (std::find(targets.begin(), targets.end(), index) != targets.end()) {
      throw Error(ErrorKind::Binder, fmt::format("column \"{}\" specified more than once", name));
    }
    targets.push_back(index);
  }
  return targets;
}

}  // namespace tally
