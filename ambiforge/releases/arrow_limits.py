"""Numbers a row may hold in JSON but a release cannot store: Parquet's integer columns have a width.

JSON allows any integer where the item schema says "integer" without a bound (a provenance seed, a review
task id), while the released Parquet columns are int32 or int64, and Arrow would stop the release with an
OverflowError (``end_of_ambiguity`` has its bound in the schema, so the schema gate names it first). The
release checks each row against the widths of the Arrow item schema
(:data:`ambiforge.storage.ITEM_ARROW_SCHEMA`, so a column changed there is checked here) and names the field.
"""

from __future__ import annotations

from collections.abc import Iterator
from functools import cache
from typing import Any

import pyarrow as pa

from ambiforge.storage.arrow_schema import ITEM_ARROW_SCHEMA

Path = tuple[str, ...]  # field names; "*" steps into every element of a list


def _int_paths(type_: pa.DataType, path: Path) -> Iterator[tuple[Path, int, int]]:
    if pa.types.is_struct(type_):
        for k in range(type_.num_fields):
            yield from _int_paths(type_.field(k).type, (*path, type_.field(k).name))
    elif pa.types.is_list(type_):
        yield from _int_paths(type_.value_type, (*path, "*"))
    elif pa.types.is_integer(type_):
        bits = type_.bit_width
        signed = pa.types.is_signed_integer(type_)
        yield path, (-(2 ** (bits - 1)) if signed else 0), (2 ** (bits - 1) - 1 if signed else 2**bits - 1)


@cache
def int_columns() -> tuple[tuple[Path, int, int], ...]:
    """(path, smallest, largest) of every integer column, nested ones included (a scene graph's seed)."""
    return tuple(found for f in ITEM_ARROW_SCHEMA for found in _int_paths(f.type, (f.name,)))


def _values(value: Any, path: Path, shown: str) -> Iterator[tuple[str, Any]]:
    if not path:
        yield shown, value
    elif path[0] == "*":
        for n, element in enumerate(value if isinstance(value, list) else []):
            yield from _values(element, path[1:], f"{shown}[{n}]")
    elif isinstance(value, dict):
        yield from _values(value.get(path[0]), path[1:], f"{shown}.{path[0]}" if shown else path[0])


def unstorable(record: dict[str, Any]) -> str | None:
    """The first field whose number does not fit its Parquet column, as ``field: value ...``; else None."""
    for path, low, high in int_columns():
        for shown, value in _values(record, path, ""):
            if isinstance(value, int | float) and not isinstance(value, bool) and not low <= value <= high:
                return f"{shown}: {value!r} does not fit the released Parquet column ({low} to {high})"
    return None
