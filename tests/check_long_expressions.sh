#!/bin/sh
# Long machine-generated expressions cost time linear in their length: 50 select items,
# each a 3,990-term sum `a + a + ... + a`, must all come out right well within this
# test's CTest timeout (a pass costing the square of a chain's length took minutes here).
# Usage: check_long_expressions.sh TALLY.
tally=$1
sql=$(mktemp)
out=$(mktemp)
trap 'rm -f "$sql" "$out"' EXIT
awk 'BEGIN {
  printf "CREATE TABLE t (a INTEGER); INSERT INTO t VALUES (3);\nSELECT ";
  for (item = 0; item < 50; item++) {
    if (item > 0) printf ",\n";
    for (term = 0; term < 3990; term++) printf "%sa", (term > 0 ? " + " : "");
    printf " AS s%d", item;
  }
  print " FROM t;";
}' >"$sql"
if ! "$tally" run --device cpu --format csv "$sql" >"$out"; then
  echo "FAIL: tally exited with status $?"
  exit 1
fi
# 3,990 terms of 3 each: 11970, in every one of the 50 columns of the result row.
values=$(tail -n 1 "$out" | tr ',' '\n' | grep -c '^11970$')
if [ "$values" -ne 50 ]; then
  echo "FAIL: expected 50 values of 11970, got $values: $(tail -n 1 "$out" | cut -c1-200)"
  exit 1
fi
echo "OK: 50 sums of 3990 terms"
