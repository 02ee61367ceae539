"""A connection: one tally Engine, its tables and the statements run against it."""
import datetime
import decimal
import numbers
import os

import numpy as np

from . import _tally
from .columns import columns_of
from .errors import InterfaceError, ProgrammingError
from .result import Result


def _bind(statement, index, value):
    """Binds one Python value to parameter ``index`` (1-based) of a native statement."""
    if value is None:
        statement.bind_null(index)
    elif isinstance(value, (bool, np.bool_)):
        statement.bind_bool(index, bool(value))
    elif isinstance(value, numbers.Integral):
        if -2**63 <= int(value) < 2**63:
            statement.bind_int64(index, int(value))
        else:
            statement.bind_decimal(index, str(int(value)))
    elif isinstance(value, decimal.Decimal):
        statement.bind_decimal(index, format(value, "f"))
    elif isinstance(value, numbers.Real):
        statement.bind_double(index, float(value))
    elif isinstance(value, (datetime.date, np.datetime64)):
        statement.bind_text(index, str(np.datetime64(value, "D")))
    elif isinstance(value, str):
        statement.bind_text(index, value)
    else:
        raise ProgrammingError(f"parameter {index}: values of type {type(value).__name__} "
                               "cannot be bound")


class PreparedStatement:
    """A SELECT with ``?`` parameters, parsed and bound once (``Connection.prepare``);
    ``execute(params)`` runs it with a sequence of values, numbered from 1 in order."""

    def __init__(self, native):
        self._native = native

    @property
    def sql(self):
        return self._native.sql

    @property
    def parameter_count(self):
        return self._native.parameter_count

    @property
    def parameter_types(self):
        return [self._native.parameter_type(i + 1) for i in range(self.parameter_count)]

    def bind(self, params):
        params = list(params)
        if len(params) != self.parameter_count:
            raise ProgrammingError(f"the statement takes {self.parameter_count} parameters, "
                                   f"{len(params)} were given")
        self._native.clear_bindings()
        for i, value in enumerate(params):
            _bind(self._native, i + 1, value)
        return self

    def execute(self, params=None):
        if params is not None:
            self.bind(params)
        return Result(self._native.execute())


class Connection:
    """``tally.connect()``: an in-memory database, or ``connect("sales.tdb")``: a database
    folder whose tables persist (created when missing). ``sql``/``execute`` run statements,
    ``register`` adds Python data as a table, ``cursor()`` gives a DB-API cursor."""

    def __init__(self, database=None, device="auto", cpu_threads=0, progress=None):
        path = "" if database in (None, ":memory:") else os.fspath(database)
        self._engine = _tally.Engine(device, cpu_threads, progress, path)
        self.device = device

    def _open(self):
        if self._engine is None:
            raise InterfaceError("the connection is closed")
        return self._engine

    def sql(self, query):
        """Runs a script of statements; the Result of the last."""
        return Result(self._open().execute(query))

    def execute(self, query, params=None):
        """Runs ``query``; with ``params`` (a sequence) as one prepared SELECT."""
        if params is None:
            return self.sql(query)
        return self.prepare(query).execute(params)

    def partial(self, query):
        """Runs one aggregate SELECT to its partial per-group states, serialized (bytes
        for tally.partial.merge and finalize, in this process or another)."""
        return self._open().execute_partial(query).serialize()

    def prepare(self, query):
        return PreparedStatement(self._open().prepare(query))

    def register(self, name, data):
        """Adds (or replaces) table ``name`` from a pandas DataFrame, a dict of numpy
        arrays or sequences, or a numpy structured array. Contiguous int16, int32,
        int64, float32 and float64 columns are not copied: tally reads their memory
        (which must not change while the table exists). Strings, decimal.Decimal,
        datetime64 / datetime.date, bool and NULLs (None, NaN in pandas, masked arrays,
        pandas NA) are converted."""
        rows, columns = columns_of(data)
        self._open().register_columns(name, columns, rows)
        return self

    def unregister(self, name):
        self._open().drop_table(name)
        return self

    def tables(self):
        """The names of the tables."""
        return list(self._open().table_names())

    def table(self, name):
        """{"name", "rows", "columns": [(name, SQL type)]} of table ``name``."""
        return self._open().table(name)

    def cancel(self):
        """Stops the statements running on this connection now (from another thread):
        each raises OperationalError with kind "cancelled"."""
        self._open().cancel()

    def cursor(self):
        from .dbapi import Cursor

        return Cursor(self)

    def commit(self):
        pass  # every statement commits on its own

    def close(self):
        self._engine = None

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()
