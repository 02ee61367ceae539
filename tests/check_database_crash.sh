#!/bin/sh
# A database survives a process killed in the middle of a large COPY: after SIGKILL at
# several moments, a second process opens it without loading anything and finds it as it
# was (or, had the COPY committed first, with all of the new rows: never a part of them).
# Then prepare/exec over the database.
# Usage: check_database_crash.sh TALLY
tally=$(realpath "$1")
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
failures=0
fail() {
  echo "FAIL: $*"
  failures=$((failures + 1))
}
"$tally" gen atable --rows 4000000 --out "$dir" >/dev/null || exit 1
db="$dir/crash.tdb"
"$tally" run --device cpu --db "$db" \
  -e "CREATE TABLE atable (col1 BIGINT, col2 INTEGER, col3 DOUBLE, col4 DECIMAL(12,2));
      INSERT INTO atable VALUES (1, 2, 3, 4)" >/dev/null || exit 1
# Untouched, the COPY commits: it is a valid load.
"$tally" run --device cpu --db "$dir/check.tdb" \
  -e "CREATE TABLE atable (col1 BIGINT, col2 INTEGER, col3 DOUBLE, col4 DECIMAL(12,2));
      COPY atable FROM '$dir/atable.tbl'" >/dev/null || fail "the COPY itself fails"
committed=0
for delay in 0.2 0.5 1 1.5 2 3; do
  "$tally" run --device cpu --db "$db" -e "COPY atable FROM '$dir/atable.tbl'" >/dev/null 2>&1 &
  pid=$!
  sleep "$delay"
  kill -9 "$pid" 2>/dev/null
  wait "$pid" 2>/dev/null
  count=$("$tally" run --device cpu --db "$db" --format csv -e "SELECT COUNT(*) FROM atable" \
    2>"$dir/err" | tail -n 1)
  case "$count" in
    1) ;;                                   # killed before the commit
    4000001) ;;                             # the COPY committed: all rows
    *) fail "after a kill at ${delay}s: COUNT(*) = '$count' ($(cat "$dir/err"))" ;;
  esac
  if [ "$count" = 4000001 ]; then           # start again from the one-row table
    committed=$((committed + 1))
    "$tally" run --device cpu --db "$db" \
      -e "DROP TABLE atable; CREATE TABLE atable (col1 BIGINT, col2 INTEGER, col3 DOUBLE,
          col4 DECIMAL(12,2)); INSERT INTO atable VALUES (1, 2, 3, 4)" >/dev/null || exit 1
  fi
done
echo "kills after the commit: $committed of 6"
# The database file is complete: nothing but the manifest's files, the locks and the
# MANIFEST remain after the next change cleans up what the killed writers left.
"$tally" run --device cpu --db "$db" -e "INSERT INTO atable VALUES (5, 6, 7, 8)" >/dev/null ||
  fail "insert after the kills"
extra=$(ls "$db" | grep -v -e '^[0-9]*\.table$' -e '^MANIFEST$' -e '^LOCK$' -e '^READERS$')
[ -z "$extra" ] || fail "files left behind: $extra"
tables=$(ls "$db" | grep -c '\.table$')
[ "$tables" -eq 1 ] || fail "$tables table files for one table"
# A statement prepared over the database runs later by reopening it, from another folder.
export TALLY_CACHE_DIR="$dir/cache"
"$tally" prepare big --db "$db" -e "SELECT COUNT(*) FROM atable WHERE col1 > ?" >/dev/null ||
  fail "prepare over the database"
rows=$(cd / && "$tally" exec big 0 --device cpu --format csv | tail -n 1)
[ "$rows" = 2 ] || fail "exec over the database gave '$rows'"
echo "$failures failure(s)"
[ "$failures" -eq 0 ]
