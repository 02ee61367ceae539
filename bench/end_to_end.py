#!/usr/bin/env python3
"""Where a user's time goes, from SQL text to the last byte written (issue 16).

  bench/end_to_end.py TALLY [--sf 10] [--cache DIR] [--device gpu]

Runs each statement seven times in one `tally shell --timing` process, fed on standard input
as an application or a person would (the first compiles; the second, "repeat", is parsed once
more only if its text is new to the session, and finds its GPU plan's kernels in memory; of
the five after it, the median by end-to-end time is reported, an application's steady
state), then once in a fresh `tally run` process that finds them in the disk kernel cache
(DIR, emptied first). These runs compile the unrolled kernels before they run (--no-quick-kernels); a
third process per statement runs it once with quick kernels ("first, quick kernels": the
quick Scan compiled, the unrolled one left to the background; runtime/compile/kernel_tiers.h),
with a kernel cache of its own. Results go to /dev/null as CSV, so output time is
the spelling and writing of every row. Per run it prints every phase --timing reports:
parse, bind, plan, codegen, NVRTC, upload (columns a statement has to copy cross the bus
while its kernels compile: "upload after compile" is the part it waited for), the kernels,
download, host finish, output;
end to end (parse + bind + execute + output) and its ratio to the kernels' time, and
"after scan" (download + host finish + output), the time a large result costs once the
kernels are done. Needs only the Python standard library.
"""
import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile

STATEMENTS = [
    ("Q1 (4 groups)", open(os.path.join(os.path.dirname(__file__), "..", "queries",
                                        "tpch_q1.sql")).read().strip().rstrip(";")),
    ("l_partkey (2 M groups)",
     "SELECT l_partkey, COUNT(*), SUM(l_quantity) FROM lineitem GROUP BY l_partkey"),
    ("l_partkey top 10",
     "SELECT l_partkey, COUNT(*), SUM(l_quantity) FROM lineitem GROUP BY l_partkey "
     "ORDER BY 3 DESC LIMIT 10"),
    ("l_orderkey (15 M groups at SF 10)",
     "SELECT l_orderkey, COUNT(*) FROM lineitem GROUP BY l_orderkey"),
    ("l_orderkey top 10", "SELECT l_orderkey, COUNT(*) FROM lineitem GROUP BY l_orderkey "
     "ORDER BY 2 DESC LIMIT 10"),
]

REPEATS = 5  # more runs of each statement after the first repeat: the median one is reported

PHASES = ["parse", "bind", "plan", "codegen", "NVRTC", "upload", "upload after compile", "kernels",
          "download", "host finish", "output"]


def parse_timing(stderr):
    """One dict of phase -> ms per statement, from the Time: and GPU: lines."""
    runs, current = [], None
    for line in stderr.splitlines():
        if line.startswith("Time: "):
            current = {k: float(v) for k, v in re.findall(r"(\w+) ([\d.]+) ms", line)}
            current["device"] = re.search(r"\(([^)]*)\)", line).group(1)
            runs.append(current)
        elif line.startswith("GPU: ") and current is not None:
            for name, value in re.findall(r"([A-Za-z][A-Za-z +()]*?) ([\d.]+) ms", line[5:]):
                name = name.strip(", ")
                if "scan" in name or name in ("init", "finalize"):
                    current["kernels"] = current.get("kernels", 0.0) + float(value)
                elif name.endswith("loaded in"):
                    continue
                else:
                    current[name.split(", ")[-1]] = float(value)
            rate = re.search(r"\(([\d.]+) MB of columns, ([\d.]+) GB/s\)", line)
            if rate:
                current["columns"] = f"{rate.group(1)} MB at {rate.group(2)} GB/s"
            current["source"] = "disk" if "disk cache" in line else (
                "plan" if "plan cache" in line else "memory" if "cache" in line else "NVRTC")
            if "(quick kernels)" in line:
                current["source"] += ", quick"
    return runs


def run_tally(tally, sql, args, cache, shell=False, quick=False):
    """`tally run -e sql`, or `tally shell` reading sql on standard input; `quick`: with
    quick kernels."""
    # The driver's compute cache would serve NVRTC a program compiled by an earlier run.
    env = dict(os.environ, TALLY_CACHE_DIR=cache, CUDA_CACHE_DISABLE="1")
    command = [tally, "shell" if shell else "run", "--tpch", str(args.sf), "--device",
               args.device, "--timing", "--format", "csv", "--no-progress"]
    if not quick:
        command.append("--no-quick-kernels")
    command += ["--history", ""] if shell else ["-e", sql]
    with open(os.devnull, "w") as null:
        done = subprocess.run(command, input=sql if shell else None, stdout=null,
                              stderr=subprocess.PIPE, text=True, env=env)
    if done.returncode != 0:
        sys.exit(f"end_to_end: tally failed ({done.returncode}):\n{done.stderr}")
    return parse_timing(done.stderr)


def end_to_end(t):
    return t.get("parse", 0) + t.get("bind", 0) + t.get("execute", 0) + t.get("output", 0)


def row(label, run, t):
    e2e = end_to_end(t)
    after = t.get("download", 0) + t.get("host finish", 0) + t.get("output", 0)
    kernels = t.get("kernels", 0)
    cells = [f"{t.get(p, 0):.2f}" for p in PHASES]
    ratio = f"{e2e / kernels:.1f}x" if kernels > 0 else "-"
    print(f"| {label} | {run} ({t.get('source', 'cpu')}) | " + " | ".join(cells) +
          f" | {e2e:.2f} | {ratio} | {after:.2f} | {t.get('columns', '')} |")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("tally")
    parser.add_argument("--sf", type=float, default=10)
    parser.add_argument("--cache", default=None)
    parser.add_argument("--device", default="gpu")
    args = parser.parse_args()
    cache = args.cache or tempfile.mkdtemp(prefix="tally-e2e-")
    shutil.rmtree(cache, ignore_errors=True)
    os.makedirs(cache)
    print(f"end to end, TPC-H SF {args.sf:g}, device {args.device}, times in ms")
    print("| statement | run | " + " | ".join(PHASES) +
          " | end to end | / kernels | after scan | columns uploaded |")
    print("|---" * (len(PHASES) + 6) + "|")
    quick_cache = tempfile.mkdtemp(prefix="tally-e2e-quick-")
    for label, sql in STATEMENTS:
        runs = run_tally(args.tally, f"{sql};\n" * (2 + REPEATS), args, cache, shell=True)
        row(label, "first", runs[0])
        row(label, "repeat", runs[1])
        steady = sorted(runs[2:], key=end_to_end)[REPEATS // 2]
        row(label, f"repeat, median of {REPEATS} more", steady)
        quick = run_tally(args.tally, f"{sql};\n", args, quick_cache, shell=True, quick=True)[0]
        row(label, "first, quick kernels", quick)
    shutil.rmtree(quick_cache, ignore_errors=True)
    for label, sql in STATEMENTS:
        fresh = run_tally(args.tally, sql + ";", args, cache)[0]
        row(label, "fresh process", fresh)


if __name__ == "__main__":
    main()
