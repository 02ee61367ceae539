// The table columns an INSERT or COPY names: `INSERT INTO t (b, a)`, `COPY t (b, a) FROM`.
#pragma once

#include <string>
#include <vector>

#include "compiler/bind/catalog.h"

namespace tally {

// The index of each named column in `schema`, in the order named; every column in table
// order when `names` is empty. An unknown or repeated name is an Error(Binder).
std::vector<int> target_columns(const std::vector<std::string>& names, const TableSchema& schema);

}  // namespace tally
