// The fixed fuzz schema: a few small tables whose values include the edges (NULLs, the
// largest integers and DECIMALs, empty and non-ASCII strings, year 1 and 9999), plus
// small tables named like the ones queries/*.sql reads (lineitem, orders, atable), so that
// mutated example queries reach the binder and the engines, not only the parser.
#pragma once

#include <string>
#include <vector>

namespace tally::fuzz {

// The value classes the generator types its expressions by.
enum class Cls { Int, Dec, Dbl, Str, Date, Bool };

struct FuzzColumn {
  std::string name;
  Cls cls;
};

struct FuzzTable {
  std::string name;
  std::vector<FuzzColumn> columns;
  int weight;  // how often the generator queries it, relative to the others
};

const std::vector<FuzzTable>& fuzz_tables();

// CREATE TABLE and INSERT statements that build every fuzz table, one statement per
// element; the same on every run.
std::vector<std::string> fuzz_schema_statements();

}  // namespace tally::fuzz
