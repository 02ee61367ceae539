#!/usr/bin/env python3
"""The interactive shell under a pseudo-terminal, as a person would use it: a statement over
several lines, dot commands, an error and a Ctrl-C that keep the session, the history file
written, and a database opened, changed and opened again.
Usage: shell_test.py TALLY_BINARY"""
import os
import pty
import select
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


def main():
    binary = sys.argv[1]
    with tempfile.TemporaryDirectory() as tmp:
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
        print(f"shell: {len(checks)} checks passed")
        return 0


if __name__ == "__main__":
    sys.exit(main())
