"""tally.dask.sql on a distributed.LocalCluster of two worker processes: TPC-H Q1 and a
COUNT(DISTINCT) / STDDEV query over a Dask dataframe of several partitions equal the
single-process answers exactly."""
import datetime
import decimal
import pathlib

import numpy as np
import pytest

import tally

dd = pytest.importorskip("dask.dataframe")
distributed = pytest.importorskip("distributed")
pd = pytest.importorskip("pandas")
import tally.dask  # noqa: E402

Q1 = (pathlib.Path(__file__).resolve().parents[2] / "queries" / "tpch_q1.sql").read_text()

DISTINCT_STDDEV = """
SELECT l_returnflag, COUNT(DISTINCT l_partkey) AS parts, STDDEV(l_quantity) AS sd_qty,
       VARIANCE(l_extendedprice) AS var_price, MIN(l_shipmode) AS first_mode,
       COUNT(DISTINCT l_shipmode) AS modes
FROM lineitem GROUP BY l_returnflag ORDER BY l_returnflag
"""


def lineitem(rows, seed=7):
    rng = np.random.default_rng(seed)

    def cents(low, high):
        return [decimal.Decimal(int(c)).scaleb(-2) for c in rng.integers(low, high, rows)]

    start = datetime.date(1992, 1, 1)
    return pd.DataFrame({
        "l_partkey": rng.integers(1, 2000, rows),
        "l_quantity": cents(100, 5100),
        "l_extendedprice": cents(90000, 10500000),
        "l_discount": cents(0, 11),
        "l_tax": cents(0, 9),
        "l_returnflag": rng.choice(["A", "N", "R"], rows).astype(object),
        "l_linestatus": rng.choice(["F", "O"], rows).astype(object),
        "l_shipdate": [start + datetime.timedelta(days=int(d))
                       for d in rng.integers(0, 2500, rows)],
        "l_shipmode": rng.choice(["AIR", "MAIL", "RAIL", "SHIP", "TRUCK"], rows).astype(object),
    })


@pytest.fixture(scope="module")
def client():
    with distributed.LocalCluster(n_workers=2, processes=True, threads_per_worker=1,
                                  dashboard_address=None) as cluster:
        with distributed.Client(cluster) as c:
            yield c


@pytest.mark.parametrize("query", [Q1, DISTINCT_STDDEV], ids=["q1", "distinct_stddev"])
def test_dask_equals_one_process(client, query):
    df = lineitem(12000)
    ddf = dd.from_pandas(df, npartitions=6)
    con = tally.connect(device="cpu")
    con.register("lineitem", df)
    expected = con.sql(query)
    result = tally.dask.sql(query, split_every=2, lineitem=ddf)
    assert result.columns == expected.columns and result.types == expected.types
    rows = result.fetchall()
    assert rows == expected.fetchall()
    assert len(rows) >= 3
    if query is Q1:
        assert all(isinstance(cell, decimal.Decimal) for cell in rows[0][2:6])
    # The workers did the scans: their processes hold tally too.
    assert len(client.scheduler_info()["workers"]) == 2


def test_dask_sql_takes_one_table(client):
    ddf = dd.from_pandas(pd.DataFrame({"v": np.arange(10)}), npartitions=2)
    with pytest.raises(TypeError):
        tally.dask.sql("SELECT SUM(v) FROM t", a=ddf, b=ddf)
    assert tally.dask.sql("SELECT SUM(v) FROM t", t=ddf).fetchall() == [(45,)]
