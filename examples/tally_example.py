"""tally from Python: numpy and pandas data in, GROUP BY results out as numpy, pandas or
rows; a prepared statement; an error with its line and column; and, where Dask is
installed, the same GROUP BY over a partitioned Dask dataframe. Ends with
"python example: OK".

    PYTHONPATH=build/python /usr/bin/python3 examples/tally_example.py
"""
import decimal

import numpy as np

import tally


def main():
    print("gpu:", tally.gpu_info())
    con = tally.connect()  # the GPU when one is usable, else the CPU engine
    rng = np.random.default_rng(1)
    rows = 100_000
    sales = {
        "region": rng.choice(["north", "south", "west"], rows),
        "units": rng.integers(1, 10, rows),  # int64: used in place, not copied
        "price": [decimal.Decimal(int(c)).scaleb(-2) for c in rng.integers(100, 10000, rows)],
    }
    con.register("sales", sales)
    query = ("SELECT region, SUM(units) AS units, SUM(price) AS revenue, "
             "COUNT(DISTINCT units) AS kinds FROM sales GROUP BY region ORDER BY region")
    result = con.sql(query)
    print(f"ran on {result.device}; columns {result.columns} of types {result.types}")
    for row in result.fetchall():
        print("  ", row)
    assert sum(r[1] for r in con.sql(query).fetchall()) == int(sales["units"].sum())

    arrays = con.sql(query).fetchnumpy()
    print("numpy:", {name: array[:2] for name, array in arrays.items()})
    try:
        print(con.sql(query).df())
    except ImportError:
        print("(pandas is not installed)")

    above = con.prepare("SELECT COUNT(*) FROM sales WHERE price > ?")
    for threshold in (decimal.Decimal("50.00"), decimal.Decimal("99.00")):
        print(f"price > {threshold}:", above.execute([threshold]).fetchone()[0])

    try:
        con.sql("SELECT region,\n  SUM(unit) FROM sales GROUP BY region")
    except tally.ProgrammingError as e:
        print(f"error ({e.kind}, line {e.line}, column {e.column}): {e.message}")
        assert e.line == 2

    try:
        import dask.dataframe as dd
        import pandas as pd

        import tally.dask as tally_dask
    except ImportError:
        print("(dask is not installed)")
    else:
        ddf = dd.from_pandas(pd.DataFrame(sales), npartitions=4)
        distributed_rows = tally_dask.sql(query, sales=ddf).fetchall()  # local threads here
        assert distributed_rows == con.sql(query).fetchall()
        print("dask: the same rows from 4 partitions")
    print("python example: OK")


if __name__ == "__main__":
    main()
