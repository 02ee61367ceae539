#!/bin/sh
# Installs tally into a temporary prefix, builds examples/ against it with find_package,
# and runs the examples (which check their own output; the C one ends with "c example: OK",
# the C++ one, last, with "example: OK"). The tally command is installed too.
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
"$work/prefix/bin/tally" --version >/dev/null
# The Python package, where the build made it: importable from the prefix alone.
for python_dir in "$work/prefix"/lib/python3*/dist-packages; do
  [ -d "$python_dir/tally" ] || continue
  PYTHONPATH="$python_dir" /usr/bin/python3 -c \
    "import tally; assert tally.connect().sql('SELECT 42').fetchall() == [(42,)]"
done
# Strict warnings: the public headers must compile cleanly in an application's build.
cmake -S "$source/examples" -B "$work/build" -G Ninja -DCMAKE_PREFIX_PATH="$work/prefix" \
  -DCMAKE_BUILD_TYPE=Release -DCMAKE_CXX_COMPILER="${CXX:-c++}" -DCMAKE_C_COMPILER="${CC:-cc}" \
  -DCMAKE_CXX_FLAGS="-Wall -Wextra -Wpedantic -Werror" \
  -DCMAKE_C_FLAGS="-Wall -Wextra -Wpedantic -Werror" >/dev/null
cmake --build "$work/build" >/dev/null
"$work/build/tally_c_example"
"$work/build/tally_example"
