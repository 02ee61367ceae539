#!/usr/bin/env python3
"""Each statement's kernels on both Scan tiers, to find where unrolling loses.

  bench/kernel_tiers.py TALLY [--sf 10] [--reps 5] [FILE.sql ...]

A Scan over shared-memory tables unrolls a block's rows 16 at a time (compiler/codegen/
scan_kernel.cpp); the quick tier reads them one at a time (runtime/compile/kernel_tiers.h).
Unrolling pays where a row's work is small, and lost 14-32x where it inlined a DISTINCT set's
probe loop (bench/RESULTS.md, session 37). For every statement over lineitem in the files
(default: queries/*.sql and bench/kernel_tier_shapes.sql), one `tally run --timing
--no-interpreter` process runs it 1 + REPS times with `SET quick_kernels = only`, then 1 + REPS
times with `SET quick_kernels = off`, and this prints the median kernel ms (init + scan +
finalize) of each tier's last REPS runs, their ratio, and "UNROLLED SLOWER" where the unrolled
Scan takes more than 1.1x the quick one. Where both tiers compile the same Scan the ratio is
about 1. Beside them: the MB of columns the statement's Scan reads (its first run's upload,
the columns' device encoding), the floor that many bytes take at --bandwidth GB/s (default
4620, an H200's measured read bandwidth; 3090 for an H100), and the unrolled time over it.
Exit status 0, or 1 when a run failed. Needs only the Python standard library.
"""
import argparse
import glob
import os
import re
import statistics
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from end_to_end import parse_timing  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
SLOWER = 1.1


def file_parameters(path):
    """The values of `?` a file's comments pass as `-p VALUE` (queries/monthly_window.sql)."""
    comments = "".join(line for line in open(path) if line.lstrip().startswith("--"))
    return re.findall(r"-p ([0-9A-Za-z_.:-]+)", comments)


def statements(path):
    """(name, sql) of each statement of a file; a statement's name is the `-- name:` comment
    before it, else the file's name and its position."""
    out, name, text = [], None, []
    base = os.path.splitext(os.path.basename(path))[0]
    for line in open(path):
        comment = re.match(r"--\s*([A-Za-z0-9_]+):", line)
        if comment and not text:
            name = comment.group(1)
        elif line.strip() and not line.lstrip().startswith("--"):
            text.append(line)
        if line.rstrip().endswith(";") and "".join(text).strip():
            out.append((name or f"{base}#{len(out) + 1}", "".join(text).strip().rstrip(";")))
            name, text = None, []
    return out


def tier_times(tally, sql, parameters, args):
    runs = 1 + args.reps
    script = ("SET quick_kernels = only;\n" + f"{sql};\n" * runs + "SET quick_kernels = off;\n" +
              f"{sql};\n" * runs)
    env = dict(os.environ, CUDA_CACHE_DISABLE="1",
               TALLY_CACHE_DIR=tempfile.mkdtemp(prefix="tally-tiers-"))
    command = [tally, "run", "--tpch", f"{args.sf:g}", "--device", "gpu", "--timing",
               "--no-interpreter", "--no-progress", "-e", script]
    for value in parameters:
        command += ["-p", value]
    with open(os.devnull, "w") as null:
        done = subprocess.run(command, stdout=null, stderr=subprocess.PIPE, text=True, env=env)
    if done.returncode != 0:
        return None, done.stderr.strip().splitlines()[-1:]
    kernels = [r["kernels"] for r in parse_timing(done.stderr) if "kernels" in r]
    if len(kernels) != 2 * runs:
        return None, [f"{len(kernels)} GPU runs reported, {2 * runs} expected"]
    # The first run uploads every column the statement reads; later runs find them resident.
    uploaded = re.search(r"\(([\d.]+) MB of columns", done.stderr)
    megabytes = float(uploaded.group(1)) if uploaded else float("nan")
    return (statistics.median(kernels[1:runs]), statistics.median(kernels[runs + 1:]),
            megabytes), []


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("tally")
    parser.add_argument("files", nargs="*")
    parser.add_argument("--sf", type=float, default=10)
    parser.add_argument("--reps", type=int, default=5)
    parser.add_argument("--bandwidth", type=float, default=4620,
                        help="the device's read bandwidth in GB/s, for the floor")
    args = parser.parse_args()
    files = args.files or sorted(glob.glob(os.path.join(HERE, "..", "queries", "*.sql"))) + [
        os.path.join(HERE, "kernel_tier_shapes.sql")]
    print(f"kernel tiers, TPC-H SF {args.sf:g}, median kernel ms of {args.reps} runs a tier; "
          f"floor: the columns read at {args.bandwidth:g} GB/s")
    print("| statement | MB read | floor | quick | unrolled | unrolled / quick | unrolled / floor "
          "| |")
    print("|---|---|---|---|---|---|---|---|")
    failed = 0
    for path in files:
        parameters = file_parameters(path)
        for name, sql in statements(path):
            if "lineitem" not in sql.lower():
                continue  # the statements run over TPC-H's lineitem only
            times, why = tier_times(args.tally, sql, parameters, args)
            if times is None:
                failed += 1
                print(f"| {name} | failed: {' '.join(why)} | | | | | | |")
                continue
            quick, unrolled, megabytes = times
            floor = megabytes / args.bandwidth  # MB / (GB/s) = ms
            ratio = unrolled / quick if quick > 0 else float("nan")
            flag = "UNROLLED SLOWER" if ratio > SLOWER else ""
            print(f"| {name} | {megabytes:.1f} | {floor:.3f} | {quick:.3f} | {unrolled:.3f} | "
                  f"{ratio:.2f} | {unrolled / floor:.1f}x | {flag} |", flush=True)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
