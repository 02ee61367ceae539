"""tally from Python: SQL GROUP BY / aggregates on the GPU (or tally's exact CPU engine)
over pandas and numpy data.

    import tally
    con = tally.connect()                      # device="auto": the GPU when usable
    con.register("t", {"k": keys, "v": values})
    con.sql("SELECT k, SUM(v) FROM t GROUP BY k").df()

``tally.dask.sql`` runs a statement over a Dask dataframe on every worker and merges the
partial aggregate states exactly.
"""
from . import _tally
from .connection import Connection, PreparedStatement
from .dbapi import Cursor
from .errors import (DatabaseError, DataError, Error, IntegrityError, InterfaceError,
                     InternalError, NotSupportedError, OperationalError, ProgrammingError,
                     Warning)
from .result import Result

apilevel = "2.0"
threadsafety = 2  # threads may share the module and connections (one Engine serves many)
paramstyle = "qmark"


def connect(database=None, device="auto", cpu_threads=0, progress=None):
    """A Connection to an in-memory database (``database``: None or ":memory:").
    ``device``: "auto" (the GPU when one is usable), "cpu" or "gpu". ``progress``: called
    as progress(rows_done, rows_total) while a SELECT runs on the CPU engine (from tally's
    threads, one call at a time)."""
    return Connection(database, device=device, cpu_threads=cpu_threads, progress=progress)


def gpu_info():
    """{"usable", "reason" (why not), "name", "memory_bytes", "compute_capability",
    "device_count", "driver_version"} of the GPU tally would use."""
    return _tally.gpu_info()


__all__ = ["connect", "gpu_info", "Connection", "Cursor", "PreparedStatement", "Result",
           "Error", "Warning", "InterfaceError", "DatabaseError", "DataError",
           "OperationalError", "IntegrityError", "InternalError", "ProgrammingError",
           "NotSupportedError", "apilevel", "threadsafety", "paramstyle"]
