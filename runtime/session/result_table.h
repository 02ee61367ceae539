// A query's rows as a table: CREATE TABLE AS, and the temporary tables that WITH queries,
// derived tables, VALUES and range() are materialised into (runtime/session/query_forms.h).
#pragma once

#include <string>
#include <vector>

#include "runtime/result/result.h"
#include "runtime/storage/table.h"

namespace tally {

// `column_aliases` rename the first columns (t(x, y)); more aliases than columns is an
// error naming `name`, as is a column name that appears twice.
TablePtr table_from_result(const std::string& name, const Result& result,
                           const std::vector<std::string>& column_aliases = {});

}  // namespace tally
