"""register(): pandas DataFrames, dicts of numpy arrays and lists, masked arrays; numeric
numpy columns are used in place (zero-copy)."""
import datetime
import decimal

import numpy as np
import pytest

import tally


def test_numpy_array_is_not_copied(con):
    values = np.arange(1, 1001, dtype=np.int64)
    data = {"v": values}
    con.register("t", data)
    from tally.columns import columns_of

    _, columns = columns_of(data)
    # What tally is handed is the array's own memory, not a converted copy...
    assert columns[0][2].__array_interface__["data"][0] == values.ctypes.data
    assert con.sql("SELECT SUM(v) FROM t").fetchall() == [(500500,)]
    # ...and tally reads that memory: a change to the array shows in the next query.
    values[0] = 1001
    assert con.sql("SELECT SUM(v) FROM t").fetchall() == [(501500,)]


def test_the_table_keeps_the_array_alive(con):
    import sys

    values = np.arange(10, dtype=np.float64)
    before = sys.getrefcount(values)
    con.register("t", {"v": values})
    assert sys.getrefcount(values) > before
    con.unregister("t")
    assert sys.getrefcount(values) == before


def test_pandas_dataframe_columns(con):
    pd = pytest.importorskip("pandas")
    df = pd.DataFrame({
        "k": ["a", "b", None, "a"],
        "i": pd.array([1, None, 3, 4], dtype="Int64"),
        "f": [1.5, np.nan, 2.5, 3.0],
        "d": pd.to_datetime(["2024-01-01", None, "2024-01-03", "2024-01-04"]),
        "small": np.array([1, 2, 3, 4], dtype=np.int8),
        "b": [True, False, True, True],
    })
    con.register("df", df)
    schema = dict(con.table("df")["columns"])
    assert schema == {"k": "VARCHAR", "i": "BIGINT", "f": "DOUBLE", "d": "DATE",
                      "small": "SMALLINT", "b": "BOOLEAN"}
    rows = con.sql("SELECT k, COUNT(*), SUM(i), SUM(f), MIN(d), SUM(small) FROM df "
                   "GROUP BY k ORDER BY k").fetchall()
    assert rows == [("a", 2, 5, 4.5, datetime.date(2024, 1, 1), 5),
                    ("b", 1, None, None, None, 2),
                    (None, 1, 3, 2.5, datetime.date(2024, 1, 3), 3)]
    assert con.sql("SELECT COUNT(*) FROM df WHERE b").fetchall() == [(3,)]


def test_dataframe_numeric_column_is_not_copied(con):
    pd = pytest.importorskip("pandas")
    df = pd.DataFrame({"v": np.arange(5, dtype=np.int32)})
    from tally.columns import columns_of

    _, columns = columns_of(df)
    assert np.shares_memory(columns[0][2], df["v"].to_numpy())
    con.register("t", df)
    assert con.sql("SELECT SUM(v) FROM t").fetchall() == [(10,)]


def test_masked_arrays_lists_decimals_and_dates(con):
    data = {
        "m": np.ma.MaskedArray([1, 2, 3], mask=[False, True, False]),
        "dec": [decimal.Decimal("1.25"), None, decimal.Decimal("-3.50")],
        "day": [datetime.date(2020, 2, 29), datetime.date(1969, 12, 31), None],
        "s": np.array(["x", "y", "zé"]),
    }
    con.register("t", data)
    schema = dict(con.table("t")["columns"])
    assert schema["dec"].startswith("DECIMAL(") and schema["dec"].endswith(",2)")
    assert schema["day"] == "DATE" and schema["s"] == "VARCHAR"
    assert con.sql("SELECT SUM(m), SUM(dec), MIN(day), MAX(s) FROM t").fetchall() == [
        (4, decimal.Decimal("-2.25"), datetime.date(1969, 12, 31), "zé")]


def test_structured_array(con):
    rec = np.array([(1, 2.0), (3, 4.0)], dtype=[("a", "i4"), ("b", "f8")])
    con.register("t", rec)
    assert con.sql("SELECT SUM(a), SUM(b) FROM t").fetchall() == [(4, 6.0)]


def test_register_replaces_and_rejects_bad_input(con):
    con.register("t", {"a": np.arange(3)})
    con.register("t", {"b": np.arange(4)})
    assert con.sql("SELECT COUNT(*) FROM t").fetchall() == [(4,)]
    with pytest.raises(tally.ProgrammingError):
        con.register("u", {"a": np.arange(3), "b": np.arange(4)})
    with pytest.raises(tally.NotSupportedError):
        con.register("u", {"a": np.array([1 + 2j])})
    with pytest.raises(tally.ProgrammingError):
        con.register("u", [1, 2, 3])
