#include "compiler/bind/catalog.h"

namespace tally {

int TableSchema::find_column(std::string_view column) const {
  for (size_t i = 0; i < columns.size(); ++i) {
    if (columns[i].name == column) return static_cast<int>(i);
  }
  return -1;
}

}  // namespace tally
