"""The GIL is released while a statement runs: other Python threads go on meanwhile."""
import threading
import time

import numpy as np

import tally


def test_other_threads_run_during_a_statement():
    con = tally.connect(device="cpu", cpu_threads=1)
    rows = 4_000_000
    con.register("t", {"k": np.arange(rows, dtype=np.int64) % 1000,
                       "v": np.arange(rows, dtype=np.float64)})
    ticks = []
    running = threading.Event()
    stop = threading.Event()

    def ticker():
        running.set()
        while not stop.is_set():
            ticks.append(time.monotonic())
            time.sleep(0.001)

    thread = threading.Thread(target=ticker)
    thread.start()
    running.wait()
    start = time.monotonic()
    result = con.sql("SELECT k, SUM(v), STDDEV(v) FROM t GROUP BY k")
    end = time.monotonic()
    stop.set()
    thread.join()
    assert len(result) == 1000
    during = [t for t in ticks if start < t < end]
    # Held GIL: no tick between start and end. Released: about one a millisecond.
    assert end - start > 0.02
    assert len(during) >= 5, (len(during), end - start)


def test_statements_from_many_threads():
    con = tally.connect(device="cpu")
    con.register("t", {"v": np.arange(100_000, dtype=np.int64)})
    results = []

    def run():
        results.append(con.sql("SELECT SUM(v) FROM t").fetchall())

    threads = [threading.Thread(target=run) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert results == [[(4999950000,)]] * 4


def test_progress_and_cancel_from_another_thread():
    seen = []
    started = threading.Event()

    def progress(done, total):
        seen.append((done, total))
        started.set()

    con = tally.connect(device="cpu", cpu_threads=1, progress=progress)
    rows = 3_000_000
    con.register("t", {"v": np.arange(rows, dtype=np.int64)})
    assert con.sql("SELECT SUM(v) FROM t WHERE v >= 0").fetchall() == [(rows * (rows - 1) // 2,)]
    assert seen[-1] == (rows, rows) and all(d <= t for d, t in seen)

    started.clear()
    errors = []

    def run():
        try:
            con.sql("SELECT v % 1000, COUNT(DISTINCT v) FROM t GROUP BY v % 1000")
        except tally.Error as e:
            errors.append(e)

    thread = threading.Thread(target=run)
    thread.start()
    assert started.wait(10)
    con.cancel()
    thread.join(30)
    assert not thread.is_alive()
    assert len(errors) == 1 and isinstance(errors[0], tally.OperationalError)
    assert errors[0].kind == "cancelled"
    # Later statements run as usual.
    assert con.sql("SELECT COUNT(*) FROM t").fetchall() == [(rows,)]
