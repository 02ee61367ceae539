"""tally's exceptions: DB-API 2.0's hierarchy, each carrying the library's error kind and,
for errors in query text, the 1-based line and column."""


class Warning(Exception):  # noqa: A001 (DB-API 2.0 names it so)
    pass


class Error(Exception):
    """Every failure tally raises. ``kind`` is the library's error kind ("syntax",
    "binder", "type", "unsupported", "execution", "data", "catalog", "io", "device",
    "out_of_memory", "compile", "cache", "internal", or "interface" for misuse of the
    Python API); ``line`` and ``column`` locate errors in query text (else None)."""

    def __init__(self, message, kind="interface", line=None, column=None):
        super().__init__(message)
        self.message = message
        self.kind = kind
        self.line = line
        self.column = column

    def __reduce__(self):  # pickled whole: errors cross Dask's processes
        return (type(self), (self.message, self.kind, self.line, self.column))

    def __str__(self):
        if self.line is None:
            return self.message
        return f"{self.message} (line {self.line}, column {self.column})"


class InterfaceError(Error):
    pass


class DatabaseError(Error):
    pass


class DataError(DatabaseError):
    pass


class OperationalError(DatabaseError):
    pass


class IntegrityError(DatabaseError):
    pass


class InternalError(DatabaseError):
    pass


class ProgrammingError(DatabaseError):
    pass


class NotSupportedError(DatabaseError):
    pass


_CLASS_OF_KIND = {
    "syntax": ProgrammingError,
    "binder": ProgrammingError,
    "type": ProgrammingError,
    "catalog": ProgrammingError,
    "unsupported": NotSupportedError,
    "execution": DataError,
    "data": DataError,
    "io": OperationalError,
    "device": OperationalError,
    "out_of_memory": OperationalError,
    "compile": OperationalError,
    "cache": OperationalError,
    "cancelled": OperationalError,
    "internal": InternalError,
}


def from_native(kind, message, line, column):
    """The exception for a tally::Error of ``kind`` (called by the extension module)."""
    return _CLASS_OF_KIND.get(kind, InternalError)(message, kind, line, column)
