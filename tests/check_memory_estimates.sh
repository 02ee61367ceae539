#!/bin/sh
# Work whose memory is known up front fails at once, saying what it needs and what is
# available, when the process may not take that much: generated tables under an
# address-space limit (ulimit -v), and `tally gen` the same way. Nothing is written.
# Usage: check_memory_estimates.sh TALLY
tally=$1
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
failures=0
check() {
  expected=$1
  shift
  start=$(date +%s)
  (ulimit -v 2000000 && "$tally" "$@") >"$dir/out" 2>"$dir/err"
  status=$?
  elapsed=$(($(date +%s) - start))
  if [ "$status" -eq 0 ]; then
    echo "FAIL: exit status 0 for: $*"
    failures=$((failures + 1))
  elif ! grep -q "$expected" "$dir/err"; then
    echo "FAIL: no '$expected' on stderr for: $* (stderr: $(cat "$dir/err"))"
    failures=$((failures + 1))
  elif [ "$elapsed" -gt 5 ]; then
    echo "FAIL: took ${elapsed}s to refuse: $*"
    failures=$((failures + 1))
  elif [ -s "$dir/out" ]; then
    echo "FAIL: wrote to stdout: $*"
    failures=$((failures + 1))
  fi
}
needs="^out of memory: generating TPC-H SF 100 needs about 78.1 GiB; .* is available (the address-space limit, ulimit -v)"
check "$needs" run --device cpu --tpch 100 -e "SELECT 1"
check "generating atable of 5000000000 rows needs about" run --device cpu --atable 5000000000 \
  -e "SELECT 1"
check "$needs" gen lineitem --sf 100 --out "$dir/tables"
if [ -e "$dir/tables/lineitem.tbl" ]; then
  echo "FAIL: gen left $dir/tables/lineitem.tbl"
  failures=$((failures + 1))
fi
echo "$failures failure(s)"
[ "$failures" -eq 0 ]
