#!/usr/bin/env bash
# Sets up, builds tally and the tests, and runs the whole test suite (GPU tests report as skipped
# without a GPU).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
cd build
ctest --output-on-failure -j "$(nproc)"
