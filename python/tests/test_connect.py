"""connect(), sql() and the result's forms: fetchall, fetchnumpy, df, columns, types."""
import datetime
import decimal

import numpy as np
import pytest

import tally


def test_select_42_from_a_fresh_connection():
    assert tally.connect().sql("SELECT 42").fetchall() == [(42,)]


def test_memory_and_a_database_folder_that_persists(tmp_path):
    assert tally.connect(":memory:").sql("SELECT 1").fetchall() == [(1,)]
    path = tmp_path / "my.tdb"
    con = tally.connect(path)
    con.sql("CREATE TABLE t (a INTEGER, s VARCHAR)")
    con.sql("INSERT INTO t VALUES (1, 'x'), (NULL, 'y')")
    del con
    again = tally.connect(str(path))
    assert again.sql("SELECT a, s FROM t ORDER BY s").fetchall() == [(1, "x"), (None, "y")]
    (tmp_path / "file").write_text("x")
    with pytest.raises(tally.Error) as e:
        tally.connect(tmp_path / "file")
    assert "is not a tally database" in str(e.value)


def test_bad_device_is_refused():
    with pytest.raises(ValueError):
        tally.connect(device="tpu")


SCRIPT = """
CREATE TABLE t (k VARCHAR(5), v INTEGER, d DECIMAL(10,2), day DATE, x DOUBLE, b BOOLEAN);
INSERT INTO t VALUES ('a', 1, 1.50, DATE '2024-01-02', 0.5, TRUE),
                     ('b', NULL, NULL, NULL, NULL, NULL),
                     ('a', 3, 2.25, DATE '2024-03-04', 1.5, FALSE);
"""


def test_result_metadata(con):
    con.sql(SCRIPT)
    r = con.sql("SELECT k, SUM(v) AS s, SUM(d) AS sd FROM t GROUP BY k ORDER BY k")
    assert r.columns == ["k", "s", "sd"]
    assert r.types[0] == "VARCHAR(5)" and r.types[1] == "BIGINT"
    assert r.types[2].startswith("DECIMAL(")
    assert r.device == "cpu"
    assert len(r) == 2


def test_fetchall_gives_python_values_and_none(con):
    con.sql(SCRIPT)
    rows = con.sql("SELECT k, v, d, day, x, b FROM t ORDER BY k, v").fetchall()
    assert rows[0] == ("a", 1, decimal.Decimal("1.50"), datetime.date(2024, 1, 2), 0.5, True)
    assert rows[2] == ("b", None, None, None, None, None)


def test_fetchone_and_fetchmany(con):
    con.sql(SCRIPT)
    r = con.sql("SELECT v FROM t ORDER BY v")
    assert r.fetchone() == (1,)
    assert r.fetchmany(5) == [(3,), (None,)]
    assert r.fetchone() is None


def test_fetchnumpy_masks_nulls(con):
    con.sql(SCRIPT)
    arrays = con.sql("SELECT k, v, d, day, x, b FROM t ORDER BY k, v").fetchnumpy()
    assert arrays["v"].dtype == np.int32
    assert isinstance(arrays["v"], np.ma.MaskedArray)
    assert arrays["v"].mask.tolist() == [False, False, True]
    assert arrays["v"].compressed().tolist() == [1, 3]
    assert arrays["day"].dtype == np.dtype("datetime64[D]")
    assert arrays["d"][0] == decimal.Decimal("1.50")
    assert arrays["k"].tolist() == ["a", "a", "b"]
    assert arrays["x"].dtype == np.float64 and arrays["b"].dtype == np.bool_


def test_fetchnumpy_of_every_fixed_width_kind_and_text_columns(con):
    con.sql("CREATE TABLE w (s SMALLINT, r REAL, ts TIMESTAMP, tm TIME, h HUGEINT, i INTERVAL);"
            "INSERT INTO w VALUES (-3, 0.25, TIMESTAMP '1970-01-02 00:00:00', TIME '00:00:01', 5,"
            " INTERVAL '1 day 02:00:00'), (NULL, NULL, NULL, NULL, NULL, NULL), (7, -1.5,"
            " TIMESTAMP '1969-12-31 23:59:59', TIME '23:59:59',"
            " CAST('-170141183460469231731687303715884105728' AS HUGEINT), INTERVAL '-1 mons')")
    arrays = con.sql("SELECT s, r, ts, tm, h, i, NULL AS nothing FROM w").fetchnumpy()
    assert arrays["s"].dtype == np.int16 and arrays["r"].dtype == np.float32
    assert arrays["s"].mask.tolist() == [False, True, False]
    assert arrays["s"].data.tolist() == [-3, 0, 7]  # 0 under the NULL
    assert arrays["r"].compressed().tolist() == [0.25, -1.5]
    # TIMESTAMP: microseconds since 1970; TIME: since midnight.
    assert arrays["ts"].dtype == np.int64
    assert arrays["ts"].compressed().tolist() == [86400000000, -1000000]
    assert arrays["tm"].compressed().tolist() == [1000000, 86399000000]
    assert arrays["h"].tolist() == ["5", None, "-170141183460469231731687303715884105728"]
    assert arrays["i"].tolist() == ["1 day 02:00:00", None, "-1 mons"]
    assert arrays["nothing"].tolist() == [None, None, None]


def test_fetchnumpy_without_nulls_is_plain(con):
    arrays = con.sql("SELECT 1 AS one, 2.5 AS two").fetchnumpy()
    assert type(arrays["one"]) is np.ndarray


def test_df(con):
    pd = pytest.importorskip("pandas")
    con.sql(SCRIPT)
    df = con.sql("SELECT k, v, day, x FROM t ORDER BY k, v").df()
    assert list(df.columns) == ["k", "v", "day", "x"]
    assert str(df["v"].dtype) == "Int32"
    assert df["v"].isna().tolist() == [False, False, True]
    assert df["day"].dtype == np.dtype("datetime64[ns]")
    assert pd.isna(df["day"][2]) and df["day"][0] == pd.Timestamp("2024-01-02")
    assert df["k"].tolist() == ["a", "a", "b"]


def test_statements_without_rows(con):
    r = con.sql("CREATE TABLE e (a INTEGER)")
    assert r.columns == [] and r.fetchall() == []
    assert r.tag == "CREATE TABLE"


def test_tables_and_schema(con):
    con.sql(SCRIPT)
    assert con.tables() == ["t"]
    schema = con.table("t")
    assert schema["rows"] == 3
    assert schema["columns"][0] == ("k", "VARCHAR(5)")
    assert [c[0] for c in schema["columns"]] == ["k", "v", "d", "day", "x", "b"]
    with pytest.raises(tally.ProgrammingError):
        con.table("nope")
    con.unregister("t")
    assert con.tables() == []


def test_gpu_info_says_usable_or_why_not():
    info = tally.gpu_info()
    assert isinstance(info["usable"], bool)
    if info["usable"]:
        assert info["name"] and info["memory_bytes"] > 0
    else:
        assert info["reason"]


def test_closed_connection(con):
    con.close()
    with pytest.raises(tally.InterfaceError):
        con.sql("SELECT 1")
