"""Partial aggregate states: parts run separately, merge as bytes, finalize to the answer
one run over all rows gives."""
import decimal

import numpy as np
import pytest

import tally
from tally import partial

QUERY = ("SELECT k, COUNT(*) AS n, SUM(v) AS s, SUM(d) AS sd, AVG(d) AS ad, "
         "COUNT(DISTINCT u) AS du, STDDEV(v) AS sv, MIN(name) AS lo, MAX(name) AS hi "
         "FROM t GROUP BY k HAVING COUNT(*) > 1 ORDER BY k")


def table(rows, seed):
    rng = np.random.default_rng(seed)
    return {
        "k": rng.integers(0, 5, rows).astype(np.int32),
        "v": rng.integers(-1000, 1000, rows),
        "d": [decimal.Decimal(int(x)).scaleb(-2) for x in rng.integers(0, 100000, rows)],
        "u": rng.integers(0, 50, rows),
        "name": [f"n{x}" for x in rng.integers(0, 30, rows)],
    }


def test_parts_merge_to_the_whole():
    parts = [table(500, seed) for seed in range(4)]
    states = []
    for part in parts:
        con = tally.connect(device="cpu")
        con.register("t", part)
        states.append(con.partial(QUERY))
    merged = partial.merge([partial.merge(states[:2]), partial.merge(states[2:])])
    whole = {name: np.concatenate([np.asarray(p[name], dtype=object if name in ("d", "name")
                                              else None) for p in parts])
             for name in parts[0]}
    con = tally.connect(device="cpu")
    con.register("t", whole)
    assert partial.finalize(merged).fetchall() == con.sql(QUERY).fetchall()


def test_an_ungrouped_query_over_no_rows_has_its_row():
    con = tally.connect(device="cpu")
    con.register("t", {"v": np.array([], dtype=np.int64)})
    state = con.partial("SELECT COUNT(*), SUM(v) FROM t")
    assert partial.finalize(partial.merge([state, state])).fetchall() == [(0, None)]


def test_mismatched_parts_and_bad_bytes_are_refused():
    con = tally.connect(device="cpu")
    con.register("t", {"v": np.arange(3)})
    a = con.partial("SELECT SUM(v) FROM t")
    b = con.partial("SELECT COUNT(v) FROM t")
    with pytest.raises(tally.DataError):
        partial.merge([a, b])
    with pytest.raises(tally.DataError):
        partial.finalize(b"nonsense")
    with pytest.raises(tally.NotSupportedError):
        con.partial("SELECT v FROM t")
