"""Errors: tally.Error subclasses (DB-API 2.0) with the library's kind, line and column."""
import pytest

import tally


def test_syntax_error_has_line_and_column(con):
    with pytest.raises(tally.ProgrammingError) as e:
        con.sql("SELECT 1,\n  2 +")
    assert e.value.kind == "syntax"
    assert e.value.line == 2 and e.value.column >= 1
    assert "line 2" in str(e.value)


def test_binder_error_names_the_column(con):
    con.sql("CREATE TABLE t (amount INTEGER)")
    with pytest.raises(tally.ProgrammingError) as e:
        con.sql("SELECT SUM(amout) FROM t")
    assert e.value.kind == "binder" and "amout" in str(e.value)
    assert (e.value.line, e.value.column) == (1, 12)


def test_errors_pickle_with_their_kind_and_place(con):
    import pickle

    with pytest.raises(tally.ProgrammingError) as e:
        con.sql("SELECT\n  nope")
    copy = pickle.loads(pickle.dumps(e.value))
    assert type(copy) is tally.ProgrammingError
    assert (copy.kind, copy.line, copy.column) == (e.value.kind, e.value.line, e.value.column)
    assert str(copy) == str(e.value)


def test_kinds_map_to_db_api_classes(con):
    with pytest.raises(tally.DataError) as e:
        con.sql("SELECT 1 / 0")
    assert e.value.kind == "execution"
    with pytest.raises(tally.ProgrammingError) as e:
        con.sql("SELECT * FROM missing")
    assert e.value.kind in ("binder", "catalog")
    assert issubclass(tally.NotSupportedError, tally.DatabaseError)
    assert issubclass(tally.DatabaseError, tally.Error)


def test_a_failing_statement_leaves_tables_as_they_were(con):
    con.sql("CREATE TABLE t (a INTEGER); INSERT INTO t VALUES (1)")
    with pytest.raises(tally.Error):
        con.sql("INSERT INTO t VALUES ('x')")
    assert con.sql("SELECT COUNT(*) FROM t").fetchall() == [(1,)]
