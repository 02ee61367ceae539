"""Partial aggregate states as bytes: ``Connection.partial(sql)`` runs an aggregate SELECT
over one part of the input; ``merge`` combines parts exactly (128-bit sums, counts, sums
of squares, DISTINCT sets); ``finalize`` gives the result one run over all parts gives."""
from . import _tally
from .result import Result


def merge(parts):
    """One serialized state from several (bytes each), combined with tally's own steps."""
    parts = list(parts)
    if not parts:
        raise ValueError("merge needs at least one partial state")
    merged = _tally.PartialResult.deserialize(parts[0])
    for part in parts[1:]:
        merged.merge(_tally.PartialResult.deserialize(part))
    return merged.serialize()


def finalize(part):
    """The Result of a (merged) serialized state: finals, HAVING, ORDER BY, LIMIT."""
    return Result(_tally.PartialResult.deserialize(part).finalize())
