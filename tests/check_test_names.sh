#!/usr/bin/env bash
# CTest runs each doctest case by its name as a filter, and doctest splits filters at ','
# and ';': a case named with either matched nothing and passed without running. None may.
set -euo pipefail
cd "${1:?usage: check_test_names.sh <source dir>}"
# A name on the line after `TEST_CASE(` (clang-format wraps long ones) counts too.
if grep -rnE 'TEST_CASE\("[^"]*[,;]' tests/unit ||
  grep -rnE -A1 'TEST_CASE\($' tests/unit | grep -E '^[^ ]+-[0-9]+- +"[^"]*[,;]'; then
  echo "test names above contain ',' or ';': CTest would not run them" >&2
  exit 1
fi
echo "test names: none with ',' or ';'"
