#!/usr/bin/env bash
# Sets up, builds the tally command (only it and what it links: no tests, no benchmarks),
# and runs TPC-H Q1 on built-in lineitem data (scale factor 1 unless given):
#   scripts/q1.sh [SF] [extra tally run options]
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh tally
sf="${1:-1}"
shift || true
build/tally run --tpch "$sf" queries/tpch_q1.sql --timing "$@"
