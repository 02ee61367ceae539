// cli/statement_end.h: the shell's test for a finished statement.
#include "cli/statement_end.h"

#include <doctest/doctest.h>

namespace tally::cli {

TEST_CASE("shell: a statement ends at a semicolon outside strings - names and comments") {
  CHECK(ends_statement("SELECT 1;"));
  CHECK(ends_statement("SELECT 1;  \n"));
  CHECK(ends_statement("SELECT 1; -- done\n"));
  CHECK(ends_statement("SELECT 1; /* done */"));
  CHECK(ends_statement("SELECT 'a;b', 'it''s';"));
  CHECK(ends_statement("SELECT \"odd;name\" FROM t;"));
  CHECK_FALSE(ends_statement(""));
  CHECK_FALSE(ends_statement("SELECT 1"));
  CHECK_FALSE(ends_statement("SELECT 'a;"));
  CHECK_FALSE(ends_statement("SELECT 'it''s;"));
  CHECK_FALSE(ends_statement("SELECT 1 -- not yet;\n"));
  CHECK_FALSE(ends_statement("SELECT 1 /* not yet; */"));
  CHECK_FALSE(ends_statement("SELECT 1 /* open;"));
  CHECK_FALSE(ends_statement("SELECT 1; SELECT 2"));
}

}  // namespace tally::cli
