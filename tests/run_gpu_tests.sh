#!/usr/bin/env bash
# Runs the GPU tests on a GPU machine in parallel processes, a few source files each:
#   tests/run_gpu_tests.sh TESTS_BINARY [OUT_DIR] [PROCESSES] [TIMEOUT_S]
# TESTS_BINARY is build/tests/tally_gpu_tests (or a stripped copy); OUT_DIR (default $OUT, else
# the current folder) gets one log a group and summary.txt. The files of tests/gpu/ go
# round-robin into PROCESSES groups (default 5), random_diff_test.cpp alone in one more, each
# process with its own kernel cache; faults_test.cpp runs last and alone, since its test loses
# the GPU context for the rest of its process. A group's filter names its files exactly
# (-sf=*/gpu/NAME.cpp), so that a pattern cannot match a directory of the path. Exit status:
# 0 when every group passed or skipped (77: no GPU), else 1.
set -uo pipefail

binary=${1:?usage: run_gpu_tests.sh TESTS_BINARY [OUT_DIR] [PROCESSES] [TIMEOUT_S]}
out=${2:-${OUT:-.}}
processes=${3:-5}
limit=${4:-420}
here=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$out"
summary="$out/summary.txt"
: >"$summary"

mapfile -t files < <(cd "$here/gpu" && ls -- *_test.cpp | sort)
groups=()
for ((g = 0; g < processes; ++g)); do groups+=(""); done
i=0
for f in "${files[@]}"; do
  case "$f" in
    faults_test.cpp | random_diff_test.cpp) continue ;;
  esac
  groups[i % processes]+="${groups[i % processes]:+,}*/gpu/$f"
  i=$((i + 1))
done
groups+=("*/gpu/random_diff_test.cpp")

run_group() {
  local name=$1 filter=$2 cache
  cache=$(mktemp -d)
  TALLY_CACHE_DIR="$cache" timeout "$limit" "$binary" -sf="$filter" >"$out/gpu_$name.log" 2>&1
  local rc=$?
  rm -rf "$cache"
  local counts timed_out=""
  counts=$(grep -E '^\[doctest\] test cases' "$out/gpu_$name.log" | tail -1)
  # timeout's 124: the group ran out of time (doctest then counts the test it killed as failed).
  [ "$rc" -eq 124 ] && timed_out=" (timed out after ${limit} s)"
  echo "$name rc=$rc$timed_out ${counts:-no doctest summary} :: $filter" >>"$summary"
}

for ((g = 0; g < ${#groups[@]}; ++g)); do
  [ -n "${groups[g]}" ] && run_group "g$g" "${groups[g]}" &
done
wait
run_group faults "*/gpu/faults_test.cpp"

cat "$summary"
# rc 0: passed; 77: the binary found no GPU and skipped everything.
if grep -vqE ' rc=(0|77) ' "$summary"; then exit 1; fi
exit 0
