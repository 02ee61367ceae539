#!/usr/bin/env python3
"""`tally run` on SIGINT (Ctrl-C): the running statement is cancelled, the command exits 130
with a message on stderr, and a COPY into a database leaves the table as it was. The COPY
reads a FIFO, so that it is still reading when the signal comes, on any machine.
Usage: cancel_test.py TALLY_BINARY"""
import os
import signal
import subprocess
import sys
import tempfile
import time


def run(binary, *args):
    done = subprocess.run([binary, *args], capture_output=True, text=True, timeout=120)
    return done.returncode, done.stdout, done.stderr


def cancelled_copy(binary, database, fifo):
    """A COPY from `fifo` into the database, interrupted halfway: (status, stderr)."""
    copy = subprocess.Popen(
        [binary, "run", "--device", "cpu", "--db", database, "-e", f"COPY t FROM '{fifo}'"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        # tally keeps ignoring SIGINT when started so (a background job): start it catching.
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    with open(fifo, "w") as rows:  # opens once the COPY opens the FIFO
        rows.write("3,z\n" * 5000)
        rows.flush()
        time.sleep(0.3)
        copy.send_signal(signal.SIGINT)
        time.sleep(0.3)
        rows.write("4,w\n" * 5000)
    _, err = copy.communicate(timeout=60)
    return copy.returncode, err


def main():
    binary = sys.argv[1]
    checks = {}
    with tempfile.TemporaryDirectory() as tmp:
        database = os.path.join(tmp, "cancel.tdb")
        fifo = os.path.join(tmp, "rows.csv")
        os.mkfifo(fifo)
        code, _, err = run(binary, "run", "--device", "cpu", "--db", database, "-e",
                           "CREATE TABLE t (a INTEGER, b VARCHAR); INSERT INTO t VALUES (1, 'x')")
        checks["the database was made"] = code == 0
        status, err = cancelled_copy(binary, database, fifo)
        checks["exit status 130"] = status == 130
        checks["stderr says the COPY was cancelled"] = "COPY t was cancelled" in err
        code, out, err = run(binary, "run", "--device", "cpu", "--db", database, "--format", "csv",
                             "-e", "SELECT COUNT(*) AS n, MIN(b) AS b FROM t")
        checks["the table is as it was"] = code == 0 and out == "n,b\n1,x\n"
    failed = [name for name, ok in checks.items() if not ok]
    if failed:
        print("FAILED: " + "; ".join(failed))
        print("last stderr:\n" + err)
        return 1
    print(f"cancel: {len(checks)} checks passed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
