#!/bin/sh
# Results written to a full disk: `tally` must exit non-zero and name the write failure on
# stderr, for every output format and for output both smaller and larger than a stdio buffer.
# Usage: check_stdout_full.sh TALLY. Exits 77 (skipped) where /dev/full does not exist.
tally=$1
if [ ! -c /dev/full ] || [ ! -w /dev/full ]; then
  echo "no writable /dev/full: skipped"
  exit 77
fi
err=$(mktemp)
trap 'rm -f "$err"' EXIT
failures=0
check() {
  "$tally" "$@" >/dev/full 2>"$err"
  status=$?
  if [ "$status" -eq 0 ]; then
    echo "FAIL: exit status 0 for: $*"
    failures=$((failures + 1))
  elif ! grep -q "writing results failed: No space left on device" "$err"; then
    echo "FAIL: no write error on stderr for: $* (stderr: $(cat "$err"))"
    failures=$((failures + 1))
  fi
}
for format in table csv json; do
  check run --device cpu --format "$format" -e "SELECT 1 AS one"
  check run --device cpu --format "$format" --tpch 0.01 \
    -e "SELECT l_orderkey, COUNT(*) FROM lineitem GROUP BY l_orderkey"
done
check run --device cpu -e "CREATE TABLE t (x INTEGER)"
check run --device cpu -e "SELECT 1; SELECT 2 FROM nowhere"
echo "$failures failure(s)"
[ "$failures" -eq 0 ]
