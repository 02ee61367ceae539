// FROM items that produce rows without reading a table: VALUES lists and the series
// functions range() and generate_series(), each built as a temporary table.
#pragma once

#include "compiler/parse/ast.h"
#include "runtime/result/result.h"
#include "runtime/storage/table.h"

namespace tally {

// VALUES rows as a result: columns column1, column2, ... (PostgreSQL's and DuckDB's
// names), typed as compiler/bind/values.cpp unifies them.
Result values_result(const std::vector<std::vector<ast::ExprPtr>>& rows);

// range(stop) / range(start, stop [, step]): stop excluded; generate_series(...): stop
// included (DuckDB). One BIGINT column named after the function, or column_aliases[0]. A
// NULL argument gives no rows; a zero step is an error.
TablePtr series_table(const ast::TableRef& ref);

}  // namespace tally
