#!/bin/sh
# Installs tally into a temporary prefix, builds examples/ against it with find_package,
# and runs the example (which checks its own output and ends with "example: OK").
# Usage: install_example.sh <tally build dir> <source dir>
set -eu
build=$1
source=$2
work=$(mktemp -d "${TMPDIR:-/tmp}/tally_install_XXXXXX")
trap 'rm -rf "$work"' EXIT
cmake --install "$build" --prefix "$work/prefix" >/dev/null
# The application sees only the installed headers: nothing of the source tree.
test -f "$work/prefix/include/tally/tally.h"
test ! -e "$work/prefix/include/compiler"
# Strict warnings: the public headers must compile cleanly in an application's build.
cmake -S "$source/examples" -B "$work/build" -G Ninja -DCMAKE_PREFIX_PATH="$work/prefix" \
  -DCMAKE_BUILD_TYPE=Release -DCMAKE_CXX_COMPILER="${CXX:-c++}" \
  -DCMAKE_CXX_FLAGS="-Wall -Wextra -Wpedantic -Werror" >/dev/null
cmake --build "$work/build" >/dev/null
"$work/build/tally_example"
