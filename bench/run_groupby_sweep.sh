#!/usr/bin/env bash
# Runs the quick GROUP BY sweep on a GPU machine and plots it:
#   bench/run_groupby_sweep.sh BUILD_DIR [OUT_DIR] [groupby_sweep options...]
# writes OUT_DIR/groupby_sweep.log (what the sweep printed), OUT_DIR/groupby_sweep.csv and,
# where matplotlib is installed, OUT_DIR/groupby_sweep.png (ns per row against K) and
# OUT_DIR/groupby_sweep_x_floor.png (time over the bandwidth floor). OUT_DIR defaults to $OUT
# (the lent GPU machine's output folder), else the current folder. Options after OUT_DIR
# are the sweep's and follow --quick (e.g. --kinds column,mod,two,string). Without a GPU the
# sweep says so and nothing is plotted. The exit status is the sweep's: 1 when a result was
# wrong or a method failed.
set -uo pipefail

build=${1:?usage: run_groupby_sweep.sh BUILD_DIR [OUT_DIR] [groupby_sweep options...]}
shift
out=${OUT:-.}
if [ $# -gt 0 ] && [[ $1 != -* ]]; then
  out=$1
  shift
fi
sweep="$build/bench/groupby_sweep"
if [ ! -x "$sweep" ]; then
  echo "run_groupby_sweep: $sweep is missing (cmake --build $build --target groupby_sweep)" >&2
  exit 2
fi
mkdir -p "$out"
csv="$out/groupby_sweep.csv"
rm -f "$csv"

"$sweep" --quick --csv "$csv" "$@" 2>&1 | tee "$out/groupby_sweep.log"
status=${PIPESTATUS[0]}

if [ ! -s "$csv" ]; then
  echo "run_groupby_sweep: no CSV written (no GPU, or the sweep stopped early): nothing to plot"
  exit "$status"
fi
python=/usr/bin/python3
[ -x "$python" ] || python=$(command -v python3 || true)
plot="$(dirname "$0")/plot_groupby_sweep.py"
if [ -z "$python" ] || ! "$python" -c "import matplotlib" 2>/dev/null; then
  echo "run_groupby_sweep: no python3 with matplotlib here: skipped the plot; elsewhere run"
  echo "  /usr/bin/python3 bench/plot_groupby_sweep.py $csv -o groupby_sweep.png"
  exit "$status"
fi
"$python" "$plot" "$csv" -o "$out/groupby_sweep.png" --metric ns_per_row
"$python" "$plot" "$csv" -o "$out/groupby_sweep_x_floor.png" --metric x_floor
exit "$status"
