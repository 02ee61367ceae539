"""A statement's result: columns as numpy arrays (masked where NULL), pandas, or rows."""
import decimal

import numpy as np


def _as_array(kind, values, mask):
    if kind == "date":
        values = values.astype("datetime64[D]")
    elif kind == "decimal":
        values = np.array([None if v is None else decimal.Decimal(v) for v in values],
                          dtype=object)
    elif kind in ("varchar", "null"):
        array = np.empty(len(values), dtype=object)
        array[:] = values
        values = array
    if mask is not None:
        return np.ma.MaskedArray(values, mask=mask)
    return values


def _pandas_column(pd, kind, values, mask):
    if mask is None:
        if kind == "date":
            return values.astype("datetime64[ns]")
        return values
    if kind in ("smallint", "integer", "bigint"):
        return pd.arrays.IntegerArray(values, mask)
    if kind == "boolean":
        return pd.arrays.BooleanArray(values, mask)
    if kind in ("real", "double"):
        return pd.arrays.FloatingArray(values, mask)
    if kind == "date":
        out = values.astype("datetime64[ns]")
        out[mask] = np.datetime64("NaT")
        return out
    return values  # object arrays hold None for NULL


class Result:
    """What ``Connection.sql`` and ``Connection.execute`` return. ``columns``,
    ``types`` (SQL spellings) and ``device`` (the engine that ran: "cpu" or
    "gpu: <name>"); ``fetchnumpy()``, ``df()``, ``fetchall()``, ``fetchone()``."""

    def __init__(self, native):
        self._native = native
        self._arrays = None
        self._rows = None
        self._next_row = 0

    @property
    def columns(self):
        return list(self._native.names)

    @property
    def types(self):
        return list(self._native.types)

    @property
    def device(self):
        return self._native.device

    @property
    def tag(self):
        return self._native.tag

    def __len__(self):
        return self._native.row_count

    def _raw(self):
        if self._arrays is None:
            kinds = self._native.kinds
            self._arrays = [(kinds[c],) + tuple(self._native.column(c))
                            for c in range(self._native.column_count)]
        return self._arrays

    def fetchnumpy(self):
        """{name: numpy array}; a column with NULLs is a numpy.ma.MaskedArray. DATE is
        datetime64[D], DECIMAL decimal.Decimal (exact), VARCHAR str, in object arrays."""
        return {name: _as_array(kind, values, mask)
                for name, (kind, values, mask) in zip(self.columns, self._raw())}

    def df(self):
        """A pandas DataFrame: nullable integer, boolean and float columns where there
        are NULLs, datetime64[ns] for DATE, decimal.Decimal for DECIMAL."""
        import pandas as pd

        data = {}
        for name, (kind, values, mask) in zip(self.columns, self._raw()):
            data[name] = _pandas_column(pd, kind, _as_array(kind, values, None), mask)
        return pd.DataFrame(data, columns=self.columns)

    def _all_rows(self):
        if self._rows is None:
            lists = []
            for kind, values, mask in self._raw():
                cells = _as_array(kind, values, None).tolist()
                if mask is not None:
                    cells = [None if null else cell for cell, null in zip(cells, mask)]
                lists.append(cells)
            self._rows = list(zip(*lists)) if lists else []
        return self._rows

    def fetchall(self):
        """The rows not fetched yet, as tuples of Python values (None for NULL)."""
        rows = self._all_rows()[self._next_row:]
        self._next_row += len(rows)
        return rows

    def fetchmany(self, size=1):
        rows = self._all_rows()[self._next_row:self._next_row + size]
        self._next_row += len(rows)
        return rows

    def fetchone(self):
        rows = self.fetchmany(1)
        return rows[0] if rows else None

    def __iter__(self):
        return iter(self.fetchone, None)

    def __repr__(self):
        rows = self._all_rows()
        lines = [" | ".join(self.columns)]
        lines += [" | ".join("NULL" if v is None else str(v) for v in row) for row in rows[:20]]
        if len(rows) > 20:
            lines.append(f"... {len(rows)} rows")
        return "\n".join(lines)
