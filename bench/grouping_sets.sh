#!/usr/bin/env bash
# GROUPING SETS / ROLLUP / CUBE on the GPU: all sets in one pass over the rows (the set id a
# group key) against one GROUP BY pass per set, and auto's choice between them, on TPC-H lineitem.
#
#   bench/grouping_sets.sh TALLY [SF]      (SF defaults to 10)
#
# Each query runs three times per way in one `tally run --timing` process: the first compiles,
# the last two are the times to read. Per run it prints the Time: line (execute = the whole
# statement) and the GPU: line (per set, or the one pass: upload, kernels, download).
set -euo pipefail
tally=${1:?usage: bench/grouping_sets.sh TALLY [SF]}
sf=${2:-10}
aggregates="COUNT(*), SUM(l_quantity), SUM(l_extendedprice), MIN(l_shipdate)"
forms=(
  "ROLLUP (l_returnflag, l_linestatus)"
  "CUBE (l_returnflag, l_linestatus, l_shipmode)"
  "GROUPING SETS ((l_suppkey), (l_shipmode), ())"
  "ROLLUP (l_shipdate, l_returnflag)"
)
for form in "${forms[@]}"; do
  for pass in per_set one_pass auto; do
    echo "== GROUP BY $form, grouping_sets = $pass"
    query="SELECT ${aggregates} FROM lineitem GROUP BY ${form};"
    "$tally" run --sf "$sf" --device gpu --timing --format csv \
      -e "SET grouping_sets = '${pass}'; ${query} ${query} ${query}" 2>&1 >/dev/null |
      grep -E '^(Time|GPU|set [0-9]+):' || true
  done
done
