"""execute(sql, params), prepared statements and the DB-API cursor."""
import datetime
import decimal

import numpy as np
import pytest

import tally

SETUP = """
CREATE TABLE t (k VARCHAR(5), v BIGINT, d DECIMAL(10,2), day DATE);
INSERT INTO t VALUES ('a', 1, 1.50, DATE '2024-01-02'), ('b', 2, 2.25, DATE '2024-03-04'),
                     ('a', 3, 0.75, DATE '2024-05-06');
"""


def test_execute_with_parameters(con):
    con.sql(SETUP)
    assert con.execute("SELECT SUM(v) FROM t WHERE k = ?", ["a"]).fetchall() == [(4,)]
    assert con.execute("SELECT COUNT(*) FROM t WHERE d > ? AND day < ?",
                       [decimal.Decimal("1.00"), datetime.date(2024, 4, 1)]).fetchall() == [(2,)]
    assert con.execute("SELECT COUNT(*) FROM t WHERE v >= ?", (np.int64(2),)).fetchall() == [(2,)]


def test_prepared_statement_runs_many_times(con):
    con.sql(SETUP)
    stmt = con.prepare("SELECT k, SUM(v) FROM t WHERE v >= ? GROUP BY k ORDER BY k")
    assert stmt.parameter_count == 1 and stmt.parameter_types == ["BIGINT"]
    assert stmt.execute([2]).fetchall() == [("a", 3), ("b", 2)]
    assert stmt.execute([3]).fetchall() == [("a", 3)]
    with pytest.raises(tally.ProgrammingError):
        stmt.execute([1, 2])
    assert stmt.execute([None]).fetchall() == []


def test_a_bad_bind_is_a_type_error(con):
    con.sql(SETUP)
    stmt = con.prepare("SELECT COUNT(*) FROM t WHERE day <= ?")
    with pytest.raises(tally.ProgrammingError) as e:
        stmt.execute(["not a date"])
    assert e.value.kind == "type"


def test_cursor_basics(con):
    con.sql(SETUP)
    cur = con.cursor()
    assert cur.execute("SELECT k, SUM(d) AS total FROM t GROUP BY k ORDER BY k") is cur
    assert [d[0] for d in cur.description] == ["k", "total"]
    assert cur.description[1][1].startswith("DECIMAL(") and len(cur.description[0]) == 7
    assert cur.rowcount == 2
    assert cur.fetchone() == ("a", decimal.Decimal("2.25"))
    assert cur.fetchall() == [("b", decimal.Decimal("2.25"))]
    assert cur.fetchone() is None
    cur.execute("SELECT v FROM t WHERE v > ? ORDER BY v", [1])
    assert cur.fetchmany(1) == [(2,)]
    assert list(cur) == [(3,)]
    cur.close()
    with pytest.raises(tally.InterfaceError):
        cur.execute("SELECT 1")


def test_module_globals():
    assert tally.apilevel == "2.0" and tally.paramstyle == "qmark"
    assert tally.threadsafety in (1, 2, 3)
