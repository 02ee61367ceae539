#!/usr/bin/env python3
"""The interactive shell under a pseudo-terminal, as a person would use it: a statement over
several lines, dot commands, an error and a Ctrl-C that keep the session, the history file
written, and a database opened, changed and opened again. A second session cancels a
running COPY and a running SELECT with Ctrl-C and goes on with its tables; a third shows
the progress line of a load on the terminal, and .progress off (--no-progress) hides it.
Usage: shell_test.py TALLY_BINARY"""
import os
import pty
import re
import select
import signal
import sys
import tempfile
import time

CTRL_C = "\x03"

SESSION = [
    "CREATE TABLE t (a INTEGER, b VARCHAR);",
    "INSERT INTO t VALUES (1, 'x;y'), (2, 'it''s'), (2, 'z');",
    "SELECT a,",
    "  COUNT(*) AS n  -- a comment; not the end",
    "FROM t GROUP BY a ORDER BY a;",
    ".mode csv",
    "SELECT a, COUNT(*) AS n FROM t GROUP BY a ORDER BY a;",
    ".tables",
    ".schema t",
    ".timer on",
    "SELECT COUNT(*) AS total FROM t;",
    ".timer off",
    "SELECT nosuch FROM t;",
    ".bogus",
    ".mode table",
    ".rows 2",
    "SELECT a FROM t ORDER BY a;",
    "SELECT 'dropped'",
    CTRL_C,  # at the prompt: the unfinished statement is dropped
    "SELECT 42 AS answer;",
    ".open {db}",  # a new database folder: its tables persist
    "CREATE TABLE kept (x INTEGER); INSERT INTO kept VALUES (7);",
    ".open {db}",  # opened again: the table was read back from disk
    "SELECT x * 6 AS kept_x FROM kept;",
    ".quit",
]


def run_session(binary, history, database):
    env = dict(os.environ, TALLY_HISTORY=history, TERM="dumb")
    pid, fd = pty.fork()
    if pid == 0:
        signal.signal(signal.SIGINT, signal.SIG_DFL)
        os.execve(binary, [binary, "shell", "--device", "cpu"], env)
    out = b""
    for line in SESSION:
        line = line.replace("{db}", database)
        time.sleep(0.05)
        os.write(fd, (line if line == CTRL_C else line + "\n").encode())
    deadline = time.time() + 60
    while time.time() < deadline:
        ready, _, _ = select.select([fd], [], [], 1.0)
        if not ready:
            continue
        try:
            chunk = os.read(fd, 65536)
        except OSError:  # the shell has exited and closed the terminal
            break
        if not chunk:
            break
        out += chunk
    _, status = os.waitpid(pid, 0)
    return out.decode(errors="replace").replace("\r", ""), os.waitstatus_to_exitcode(status)


class Terminal:
    """A child process on a pseudo-terminal, read as it writes."""

    def __init__(self, argv, env):
        self.pid, self.fd = pty.fork()
        if self.pid == 0:
            signal.signal(signal.SIGINT, signal.SIG_DFL)  # as on a terminal, whatever ran us
            # One CPU: the slow SELECT below stays slow on a machine with many.
            os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})
            os.execve(argv[0], argv, env)
        self.text = ""

    def send(self, text):
        os.write(self.fd, text.encode())

    def wait_for(self, needle, start=0, timeout=60):
        """The position of `needle` in the output after `start`; None at the timeout."""
        deadline = time.time() + timeout
        while needle not in self.text[start:] and time.time() < deadline:
            ready, _, _ = select.select([self.fd], [], [], 0.2)
            if not ready:
                continue
            try:
                chunk = os.read(self.fd, 65536)
            except OSError:
                break
            if not chunk:
                break
            self.text += chunk.decode(errors="replace").replace("\r", "")
        found = self.text.find(needle, start)
        return None if found < 0 else found

    def finish(self):
        self.wait_for("\0", timeout=30)  # reads to the end of the output
        _, status = os.waitpid(self.pid, 0)
        return os.waitstatus_to_exitcode(status)


# Rows enough that the CPU engine's SELECT below runs for seconds on one CPU.
CANCEL_ROWS = 4000000
# About 1.2 s on 2 cores (the 9-group form of it took 0.53 s, and a Ctrl-C after 0.5 s came
# after its rows).
SLOW_SELECT = ("SELECT col1 % 99991 AS k, COUNT(DISTINCT col2) AS d, COUNT(DISTINCT col4) AS d4, "
               "SUM(col3 * col4 + col2) AS s FROM atable WHERE col3 * 2 > col4 - 1000 GROUP BY 1;\n")


def run_cancel_session(binary, tmp):
    """Ctrl-C during a COPY (from a FIFO, so that it is still reading when the Ctrl-C comes)
    and during a long SELECT: each says "cancelled" and the session goes on."""
    fifo = os.path.join(tmp, "rows.csv")
    os.mkfifo(fifo)
    env = dict(os.environ, TALLY_HISTORY="", TERM="dumb")
    term = Terminal([binary, "shell", "--device", "cpu", "--atable", str(CANCEL_ROWS)], env)
    checks = {}
    term.wait_for("tally> ", timeout=120)
    term.send("CREATE TABLE t (a INTEGER, b VARCHAR);\n")
    term.wait_for("CREATE TABLE\n")
    term.send(".mode csv\n")
    mark = len(term.text)
    term.send(f"COPY t FROM '{fifo}';\n")
    with open(fifo, "w") as rows:  # opens once the COPY opens the FIFO
        rows.write("1,x\n" * 1000)
        rows.flush()
        time.sleep(0.3)
        term.send(CTRL_C)
        checks["the first Ctrl-C said it cancels"] = term.wait_for("cancelling", mark) is not None
        rows.write("2,y\n" * 1000)
    checks["the COPY was cancelled"] = term.wait_for("COPY t was cancelled", mark) is not None
    mark = len(term.text)
    term.send("SELECT COUNT(*) AS n_after FROM t;\n")
    checks["the table is as it was (empty)"] = term.wait_for("n_after\n0\n", mark) is not None
    mark = len(term.text)
    term.send(SLOW_SELECT)
    time.sleep(0.2)
    term.send(CTRL_C)
    checks["the SELECT was cancelled"] = term.wait_for("the statement was cancelled",
                                                       mark) is not None
    checks["the SELECT printed no rows"] = "k,d,d4,s\n" not in term.text[mark:]
    mark = len(term.text)
    term.send("SELECT COUNT(*) AS total FROM atable;\n")
    checks["the next statement ran"] = term.wait_for(f"total\n{CANCEL_ROWS}\n", mark) is not None
    term.send(".quit\n")
    checks["exit status 0 after the cancels"] = term.finish() == 0
    return term.text, checks


def run_progress_session(binary, tmp):
    """A COPY of 8 MB with the progress line's delay at 0: the line shows on the terminal and
    is blanked out before the COPY's tag; after .progress off it does not show."""
    path = os.path.join(tmp, "progress.csv")
    with open(path, "w") as rows:
        rows.write("1,x\n" * 2000000)
    env = dict(os.environ, TALLY_HISTORY="", TERM="dumb", TALLY_PROGRESS_DELAY="0")
    term = Terminal([binary, "shell", "--device", "cpu"], env)
    term.wait_for("tally> ")
    term.send(f"CREATE TABLE t (a INTEGER, b VARCHAR); COPY t FROM '{path}';\n")
    checks = {}
    checks["a COPY shows its progress"] = term.wait_for("COPY 2000000") is not None and (
        "loading: " in term.text and "% of 8.0 MB, " in term.text)
    # The last update is blanked out on its line (\r is dropped here) before the tag.
    checks["the progress line is cleared"] = re.search(r"MB/s *COPY 2000000", term.text) is not None
    term.send(".progress off\n")
    mark = len(term.text)
    term.send(f"COPY t FROM '{path}';\n")
    checks[".progress off hides it"] = term.wait_for("COPY 2000000", mark) is not None and (
        "loading: " not in term.text[mark:])
    term.send(".quit\n")
    checks["exit status 0 after the loads"] = term.finish() == 0
    # tally run on the terminal: the same line, unless --no-progress.
    copy = f"CREATE TABLE t (a INTEGER, b VARCHAR); COPY t FROM '{path}'"
    for flag, shown in (("--timing", True), ("--no-progress", False)):
        run = Terminal([binary, "run", "--device", "cpu", flag, "-e", copy], env)
        run.wait_for("COPY 2000000")
        checks[f"run {flag}: progress {'shown' if shown else 'hidden'}"] = (
            run.finish() == 0 and ("loading: " in run.text) == shown)
    return term.text, checks


def main():
    binary = sys.argv[1]
    with tempfile.TemporaryDirectory() as tmp:
        cancel_text, cancel_checks = run_cancel_session(binary, tmp)
        progress_text, progress_checks = run_progress_session(binary, tmp)
        cancel_text += "\nprogress session:\n" + progress_text
        cancel_checks.update(progress_checks)
        failed = [name for name, ok in cancel_checks.items() if not ok]
        if failed:
            print("cancel session output:\n" + cancel_text)
            print("FAILED: " + "; ".join(failed))
            return 1
        history = os.path.join(tmp, "history")
        database = os.path.join(tmp, "shell.tdb")
        text, code = run_session(binary, history, database)
        checks = {
            "exit status 0": code == 0,
            "multi-line SELECT printed its rows": "(2 rows)" in text,
            ".mode csv printed CSV": "a,n\n1,1\n2,2\n" in text,
            ".tables listed t": "\nt\n" in text,
            ".schema printed the table": "CREATE TABLE t (a INTEGER, b VARCHAR);" in text,
            ".timer printed times": "Time: parse" in text,
            "a SQL error kept the session": 'column "nosuch" does not exist' in text
            and "(3 rows, 2 shown)" in text,
            "an unknown dot command said so": "unknown or incomplete command .bogus" in text,
            "Ctrl-C dropped the unfinished statement": "^C" in text
            and "answer\n" in text.replace(" ", "") and "dropped" not in text.split("^C")[1],
            "the history file was written": os.path.exists(history),
            ".open made a database and read it back": f"opened {database} (0 tables)" in text
            and f"opened {database} (1 tables)" in text and "42\n" in text.split("kept_x")[-1],
        }
        history_text = open(history).read() if os.path.exists(history) else ""
        # libedit writes its own history format; the statement's text is in it either way.
        checks["history holds the multi-line statement"] = "FROM t GROUP BY a ORDER BY a;" in (
            history_text.replace("\\040", " "))
        failed = [name for name, ok in checks.items() if not ok]
        if failed:
            print("shell session output:\n" + text)
            print("history file:\n" + history_text)
            print("FAILED: " + "; ".join(failed))
            return 1
        print(f"shell: {len(checks) + len(cancel_checks)} checks passed")
        return 0


if __name__ == "__main__":
    sys.exit(main())
