"""Python data as tally columns: a pandas DataFrame, a dict of numpy arrays (or
sequences), a numpy structured array or a numpy.ma.MaskedArray per column, turned into
the tuples (name, kind, data, validity, offsets, precision, scale) that the extension's
register_columns points tally::ColumnView at. Contiguous int16/int32/int64/float32/float64
arrays pass through as they are, so tally uses their memory in place (zero-copy)."""
import datetime
import decimal
import numbers

import numpy as np

from .errors import NotSupportedError, ProgrammingError

_NUMERIC = {
    np.dtype(np.int16): "smallint",
    np.dtype(np.int32): "integer",
    np.dtype(np.int64): "bigint",
    np.dtype(np.float32): "real",
    np.dtype(np.float64): "double",
}
_WIDENED = {  # integer types tally has no column of, and the type that holds them
    np.dtype(np.int8): np.int16,
    np.dtype(np.uint8): np.int16,
    np.dtype(np.uint16): np.int32,
    np.dtype(np.uint32): np.int64,
}
_EPOCH = datetime.date(1970, 1, 1)
_WIDE = decimal.Context(prec=80)


def _validity(mask):
    """Arrow's validity bitmap (bit set = not NULL) for a NULL mask, or None."""
    if mask is None or not mask.any():
        return None
    return np.packbits(~mask, bitorder="little")


def _strings(name, values, mask):
    encoded = [b"" if null else str(v).encode("utf-8") for v, null in zip(values, mask)]
    offsets = np.zeros(len(encoded) + 1, dtype=np.int64)
    np.cumsum([len(b) for b in encoded], out=offsets[1:])
    data = np.frombuffer(b"".join(encoded) or b"\0", dtype=np.uint8)
    return (name, "varchar", data, _validity(mask), offsets, 0, 0)


def _decimals(name, values, mask):
    present = [v for v, null in zip(values, mask) if not null]
    if any(not v.is_finite() for v in present):
        raise NotSupportedError(f'column "{name}": NaN and infinite decimals have no DECIMAL')
    scale = max([0] + [-v.as_tuple().exponent for v in present])
    unscaled = [0 if null else int(v.scaleb(scale, context=_WIDE))
                for v, null in zip(values, mask)]
    digits = max([scale, 1] + [len(str(abs(u))) for u in unscaled])
    if digits > 38:
        raise NotSupportedError(f'column "{name}": decimals of more than 38 digits')
    # DECIMAL(18, s) or DECIMAL(38, s): parts of one table (Dask partitions) get one type.
    precision = 18 if digits <= 18 else 38
    data = np.frombuffer(b"".join(u.to_bytes(16, "little", signed=True) for u in unscaled)
                         or bytes(16), dtype=np.uint8)
    return (name, "decimal", data, _validity(mask), None, precision, scale)


def _dates(name, days, mask):
    return (name, "date", np.ascontiguousarray(days, dtype=np.int32), _validity(mask), None,
            0, 0)


def _all(values, types):
    return all(isinstance(v, types) for v in values)


def _objects(name, values, mask):
    """An object column: its kind is that of its non-NULL values."""
    present = [v for v, null in zip(values, mask) if not null]
    if _all(present, str):  # every value NULL too: a VARCHAR column
        return _strings(name, values, mask)
    if _all(present, decimal.Decimal):
        return _decimals(name, values, mask)
    if _all(present, datetime.date):
        days = [0 if null else v.toordinal() - _EPOCH.toordinal()
                for v, null in zip(values, mask)]
        return _dates(name, np.array(days, dtype=np.int64), mask)
    if _all(present, (bool, np.bool_)):
        return _numpy(name, np.array([bool(v) and not n for v, n in zip(values, mask)]), mask)
    if _all(present, numbers.Integral):
        return _numpy(name, np.array([0 if n else int(v) for v, n in zip(values, mask)],
                                     dtype=np.int64), mask)
    if _all(present, numbers.Real):
        return _numpy(name, np.array([0.0 if n else float(v) for v, n in zip(values, mask)],
                                     dtype=np.float64), mask)
    kinds = sorted({type(v).__name__ for v in present})
    raise NotSupportedError(f'column "{name}": values of types {kinds} have no tally type')


def _numpy(name, array, mask):
    """A 1-D numpy array (not masked) and its NULL mask (or None)."""
    if array.ndim != 1:
        raise ProgrammingError(f'column "{name}": a column is one-dimensional')
    dtype = array.dtype
    if mask is not None and not mask.any():
        mask = None
    if dtype.kind == "M":  # datetime64: whole days since 1970-01-01
        nat = np.isnat(array)
        mask = nat if mask is None else (mask | nat)
        days = array.astype("datetime64[D]").astype(np.int64)
        days[mask] = 0
        return _dates(name, days, mask)
    if dtype.kind in "OUS":
        if mask is None:
            mask = np.array([v is None for v in array], dtype=bool) if dtype.kind == "O" \
                else np.zeros(len(array), dtype=bool)
        return _objects(name, array, mask)
    if dtype == np.bool_:
        return (name, "boolean", np.ascontiguousarray(array), _validity(mask), None, 0, 0)
    if dtype == np.uint64:
        if len(array) and array.max() > np.iinfo(np.int64).max:
            raise NotSupportedError(f'column "{name}": uint64 values above 2^63 - 1')
        array = array.astype(np.int64)
    elif dtype in _WIDENED:
        array = array.astype(_WIDENED[dtype])
    elif dtype.newbyteorder("=") in _NUMERIC and dtype.byteorder not in "=|":
        array = array.astype(dtype.newbyteorder("="))
    if array.dtype not in _NUMERIC:
        raise NotSupportedError(f'column "{name}": numpy dtype {dtype} has no tally type')
    if mask is not None and np.any(array[mask] != 0):
        array = np.where(mask, 0, array).astype(array.dtype)  # zero under NULLs: in place
    return (name, _NUMERIC[array.dtype], np.ascontiguousarray(array), _validity(mask), None,
            0, 0)


def _pandas_series(name, series):
    import pandas as pd

    mask = series.isna().to_numpy(dtype=bool)
    dtype = series.dtype
    if isinstance(dtype, pd.api.extensions.ExtensionDtype) and not isinstance(
            dtype, np.dtype):
        kind = getattr(dtype, "kind", "O")
        if kind in "iuf" and hasattr(dtype, "numpy_dtype"):
            values = series.to_numpy(dtype=dtype.numpy_dtype, na_value=0)
        elif kind == "b":
            values = series.to_numpy(dtype=bool, na_value=False)
        elif kind == "M":
            values = series.dt.tz_localize(None).to_numpy() if getattr(
                dtype, "tz", None) else series.to_numpy()
        else:
            values = series.to_numpy(dtype=object, na_value=None)
        return _numpy(name, values, mask)
    values = series.to_numpy()
    if values.dtype.kind == "f":
        return _numpy(name, values, mask)  # pandas reads NaN as missing: NULL
    if values.dtype.kind == "O":
        values = np.array([None if null else v for v, null in zip(values, mask)],
                          dtype=object)
    return _numpy(name, values, mask)


def _column(name, data):
    if type(data).__module__.startswith("pandas"):
        return _pandas_series(name, data)
    if isinstance(data, np.ma.MaskedArray):
        return _numpy(name, np.ma.getdata(data), np.ma.getmaskarray(data))
    if isinstance(data, np.ndarray):
        return _numpy(name, data, None)
    values = list(data)
    return _numpy(name, np.array(values, dtype=object),
                  np.array([v is None for v in values], dtype=bool))


def columns_of(data):
    """(row count, column tuples) of a DataFrame, a dict of columns, a structured array."""
    if type(data).__name__ == "DataFrame" and type(data).__module__.startswith("pandas"):
        items = [(str(name), data[name]) for name in data.columns]
    elif isinstance(data, np.ndarray) and data.dtype.names:
        items = [(name, data[name]) for name in data.dtype.names]
    elif isinstance(data, dict):
        items = [(str(name), column) for name, column in data.items()]
    else:
        raise ProgrammingError("register takes a pandas DataFrame, a dict of columns or a "
                               f"numpy structured array, not {type(data).__name__}")
    rows = {len(column) for _, column in items}
    if len(rows) > 1:
        raise ProgrammingError(f"columns of different lengths: {sorted(rows)}")
    return (rows.pop() if rows else 0), [_column(name, column) for name, column in items]
