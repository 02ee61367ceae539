// What the binder needs to know about tables: names and column types. The runtime's
// Database implements this over the tables it holds.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "compiler/common/types.h"

namespace tally {

struct ColumnSchema {
  std::string name;
  Type type;
  bool not_null = false;

  bool operator==(const ColumnSchema& other) const = default;
};

struct TableSchema {
  std::string name;
  std::vector<ColumnSchema> columns;

  // Index of a column by name (names are stored lower case unless quoted), or -1.
  int find_column(std::string_view name) const;
};

class Catalog {
 public:
  virtual ~Catalog() = default;
  virtual const TableSchema* find_table(std::string_view name) const = 0;
  virtual std::vector<std::string> table_names() const = 0;
};

}  // namespace tally
