"""DB-API 2.0 (PEP 249) cursors over a tally Connection."""
from .errors import InterfaceError


class Cursor:
    arraysize = 1

    def __init__(self, connection):
        self.connection = connection
        self._result = None
        self.description = None
        self.rowcount = -1

    def execute(self, operation, parameters=None):
        """Runs one statement (``?`` placeholders take ``parameters`` in order)."""
        if self.connection is None:
            raise InterfaceError("the cursor is closed")
        result = self.connection.execute(operation, parameters)
        self._result = result
        if result.columns:
            self.description = [
                (name, type_name, None, None, *_precision_scale(type_name), True)
                for name, type_name in zip(result.columns, result.types)]
            self.rowcount = len(result)
        else:
            self.description = None
            self.rowcount = -1
        return self

    def executemany(self, operation, seq_of_parameters):
        for parameters in seq_of_parameters:
            self.execute(operation, parameters)
        return self

    def _fetching(self):
        if self._result is None:
            raise InterfaceError("no statement has been executed")
        return self._result

    def fetchone(self):
        return self._fetching().fetchone()

    def fetchmany(self, size=None):
        return self._fetching().fetchmany(self.arraysize if size is None else size)

    def fetchall(self):
        return self._fetching().fetchall()

    def close(self):
        self.connection = None
        self._result = None

    def setinputsizes(self, sizes):
        pass

    def setoutputsize(self, size, column=None):
        pass

    def __iter__(self):
        return iter(self.fetchone, None)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()


def _precision_scale(type_name):
    if type_name.startswith("DECIMAL("):
        precision, scale = type_name[len("DECIMAL("):-1].split(",")
        return int(precision), int(scale)
    return None, None
