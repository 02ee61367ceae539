#!/usr/bin/python3
"""Plots groupby_sweep's CSV against K (log2 axis): one panel per key kind (rows) and
distribution (columns), one line per method.

    /usr/bin/python3 bench/plot_groupby_sweep.py sweep.csv [-o sweep.png] [--metric M]

--metric g_rows_per_s draws throughput (input rows over kernel time), the inverse of
ns_per_row; --metric ns_per_row (the default) draws the kernel time per input row, with the floor (the
columns tally reads at the read bandwidth measured in the same run) as a dashed line;
x_floor draws each method's time over that floor (1 is the floor); x_best_peer its time
over the fastest hand-written peer at that K. Auto's points are labelled with the strategy
it chose where that changes. Methods that did not run (n/a, failed, a wrong result) leave
no point. The CPU engine is drawn only where no GPU method is (a --cpu run).

Needs matplotlib (Debian: apt install python3-matplotlib); exits with status 3 and a
message when it is missing. The output's format follows its extension (.png, .svg, .pdf).
"""
import argparse
import csv
import sys
from collections import defaultdict

# Tally's strategies, auto, then the hand-written peers; others after, by name.
METHOD_ORDER = ["thread", "direct", "block", "hash", "auto", "atomics", "shared", "cluster", "partition", "sliced", "cub", "cpu"]
PEERS = {"atomics", "shared", "cluster", "partition", "sliced", "cub"}
LABELS = {
    "ns_per_row": "ns per row",
    "g_rows_per_s": "G rows/s",
    "x_floor": "time / floor",
    "x_best_peer": "time / best peer",
}


def read(path, metric):
    """{(kind, dist): {method: [(k, value, note)]}}, and the kinds and dists in CSV order."""
    panels = defaultdict(lambda: defaultdict(list))
    kinds, dists = [], []
    with open(path, newline="") as f:
        for row in csv.DictReader(f):
            if row["kind"] not in kinds:
                kinds.append(row["kind"])
            if row["dist"] not in dists:
                dists.append(row["dist"])
            column = "ns_per_row" if metric == "g_rows_per_s" else metric
            if row["status"] != "ran" or not row[column] or float(row[column]) <= 0:
                continue
            value = float(row[column])
            if metric == "g_rows_per_s":
                value = 1 / value  # rows per ns = G rows/s
            panels[(row["kind"], row["dist"])][row["method"]].append(
                (int(row["k"]), value, row["note"]))
    return panels, kinds, dists


def method_key(method):
    return (METHOD_ORDER.index(method) if method in METHOD_ORDER else len(METHOD_ORDER), method)


def draw_panel(ax, methods, metric):
    gpu_methods = [m for m in methods if m not in ("cpu", "floor")]
    for method in sorted(methods, key=method_key):
        if method == "cpu" and gpu_methods:
            continue
        points = sorted(methods[method])
        ks = [p[0] for p in points]
        values = [p[1] for p in points]
        if method == "floor":
            ax.plot(ks, values, "k--", linewidth=1, label="floor (tally's bytes)")
            continue
        style = ":" if method in PEERS else "-"
        marker = "s" if method == "auto" else "o"
        width = 2.5 if method == "auto" else 1.2
        ax.plot(ks, values, style, marker=marker, markersize=3, linewidth=width, label=method)
        if method == "auto":  # the strategy it chose, where that changes
            last = None
            for k, value, note in points:
                choice = note.split(",")[0]
                if choice and choice != last:
                    ax.annotate(choice, (k, value), fontsize=7, textcoords="offset points",
                                xytext=(0, 6), ha="center")
                last = choice
    if metric == "x_best_peer":
        ax.axhline(1, color="k", linewidth=0.8, linestyle="--", label="best peer")


def plot(panels, kinds, dists, metric, out):
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from matplotlib import ticker

    fig, axes = plt.subplots(len(kinds), len(dists), figsize=(6 * len(dists), 4 * len(kinds)),
                             squeeze=False)
    for row, kind in enumerate(kinds):
        for col, dist in enumerate(dists):
            ax = axes[row][col]
            methods = panels.get((kind, dist))
            if not methods:
                ax.set_visible(False)
                continue
            draw_panel(ax, methods, metric)
            ax.set_xscale("log", base=2)
            ax.set_yscale("log")
            # Ratios span less than a decade or two: label the minor ticks too.
            ax.yaxis.set_major_formatter(ticker.FormatStrFormatter("%g"))
            ax.yaxis.set_minor_formatter(ticker.FormatStrFormatter("%g"))
            ax.tick_params(axis="y", which="minor", labelsize=7)
            ax.set_xlabel("K (groups)")
            ax.set_ylabel(LABELS[metric])
            ax.set_title(f"{kind} keys, {dist}")
            ax.grid(True, which="major", alpha=0.3)
            ax.legend(fontsize=7)
    fig.tight_layout()
    fig.savefig(out, dpi=120)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("csv", help="the file groupby_sweep --csv wrote")
    parser.add_argument("-o", "--output", default="groupby_sweep.png")
    parser.add_argument("--metric", choices=sorted(LABELS), default="ns_per_row")
    args = parser.parse_args()
    try:
        import matplotlib  # noqa: F401  (only to say clearly that it is missing)
    except ImportError:
        print("plot_groupby_sweep: matplotlib is missing (apt install python3-matplotlib)",
              file=sys.stderr)
        sys.exit(3)
    panels, kinds, dists = read(args.csv, args.metric)
    if not panels:
        sys.exit(f"{args.csv}: no row has a {args.metric} value (a --cpu run has no floor "
                 "and no peers)")
    plot(panels, kinds, dists, args.metric, args.output)
    print(f"wrote {args.output}: {len(panels)} panels, {LABELS[args.metric]} against K")


if __name__ == "__main__":
    main()
