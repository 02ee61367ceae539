#!/usr/bin/env bash
# Installs tally's build dependencies (Debian 12 packages; the CUDA Toolkit 13 is expected
# at /usr/local/cuda) and builds tally into build/. Safe to run again.
#   scripts/setup.sh            builds the tally command, the tools and the tests
#   scripts/setup.sh benches    builds the benchmarks in bench/
#   scripts/setup.sh TARGET...  builds only these targets and what they link (e.g. tally)
set -euo pipefail
cd "$(dirname "$0")/.."

packages=(cmake ninja-build g++ antlr4 libantlr4-runtime-dev libfmt-dev doctest-dev libcli11-dev zlib1g-dev)
optional=(libedit-dev)  # the shell's line editing; without it the shell reads plain lines
# The Python module (pybind11, Python's headers, numpy) and its tests (pandas, pytest, Dask);
# without them the module is not built, or the tests that need them skip.
python_optional=(python3-dev pybind11-dev python3-numpy python3-pandas python3-pytest
                 python3-distributed python3-dask)
optional+=("${python_optional[@]}")
missing() {
  for p in "$@"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || echo "$p"
  done
}
sudo=""
[ "$(id -u)" -ne 0 ] && sudo="sudo"
mapfile -t need < <(missing "${packages[@]}" "${optional[@]}")
if [ ${#need[@]} -gt 0 ]; then
  $sudo apt-get update -qq || true
  # One at a time: an optional package that cannot be had must not stop the others.
  for p in "${need[@]}"; do
    flags=()
    # Recommends of the Python packages (numba, bokeh, ...) add minutes and nothing used.
    [[ " ${python_optional[*]} " == *" $p "* ]] && flags=(--no-install-recommends)
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${flags[@]}" "$p" >/dev/null ||
      true
  done
  mapfile -t still < <(missing "${packages[@]}")
  if [ ${#still[@]} -gt 0 ]; then
    echo "setup: could not install ${still[*]}" >&2
    exit 1
  fi
  mapfile -t skipped < <(missing "${optional[@]}")
  [ ${#skipped[@]} -eq 0 ] ||
    echo "setup: ${skipped[*]} not installed (README \"Dependencies\" says what goes without)" >&2
fi
if [ ! -f /usr/local/cuda/include/cuda.h ]; then
  echo "setup: the CUDA Toolkit 13 headers are expected at /usr/local/cuda" >&2
  exit 1
fi

cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
targets=()
for target in "$@"; do targets+=(--target "$target"); done
cmake --build build "${targets[@]}"
