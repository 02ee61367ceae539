"""tally over Dask dataframes, beyond one machine:

    import tally.dask
    result = tally.dask.sql("SELECT k, SUM(v), COUNT(DISTINCT u) FROM t GROUP BY k", t=ddf)
    result.df()

Every partition runs the statement to partial aggregate states on its worker (tally's CPU
engine there), the states travel as bytes and merge in a tree (``split_every`` at a
time) with tally's own combine steps, and the client finalizes: integer and DECIMAL
results equal one process's over the whole table, bit for bit.
"""
from . import connect
from .partial import finalize, merge


def _partial(query, name, frame):
    con = connect(device="cpu")
    con.register(name, frame)
    return con.partial(query)


def _merge(*parts):
    return merge(parts)


def sql(query, split_every=8, **tables):
    """Runs an aggregate SELECT over the Dask dataframe named in FROM (pass it as
    ``name=ddf``); returns a tally Result. ``split_every``: states merged per task."""
    import dask

    if len(tables) != 1:
        raise TypeError("tally.dask.sql takes the statement's one table as name=dataframe")
    ((name, frame),) = tables.items()
    parts = [dask.delayed(_partial, pure=True)(query, name, part)
             for part in frame.to_delayed()]
    if not parts:
        raise ValueError("the dataframe has no partitions")
    while len(parts) > 1:
        parts = [dask.delayed(_merge, pure=True)(*parts[i:i + split_every])
                 for i in range(0, len(parts), split_every)]
    (state,) = dask.compute(parts[0])
    return finalize(state)
