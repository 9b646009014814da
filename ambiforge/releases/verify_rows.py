"""``verify``, the rows: data.jsonl.gz, data.parquet and every split's Parquet file (and, in a release written
before the JSON lines were compressed, data.jsonl, ambik.csv and each split's CSV file) read in lockstep, one
record batch at a time, and compared row by row and field by field.

The JSON lines are the reference: each row, with the scene graphs it leaves to the Parquet file put back
(:mod:`ambiforge.releases.jsonl_form`), passes the item schema, and its world (scene graph and the node ids
its claims name) holds together (:mod:`ambiforge.releases.verify_world`). Each format is decoded as the writer
encoded it: a Parquet file has the item schema's columns with its types (the world struct field for field),
``ambiguity_type`` names one of the ClassLabel's classes (in the schema metadata), and mappings are lists of
key/value structs (:func:`ambiforge.storage.table_to_records` turns them back); the CSV files are the AmbiK
layout (numbered plan lines, comma-joined lists), so their cells are re-derived from the JSONL row with the writer's own
function (:func:`ambiforge.ambik.csv_io.row_cells`) and compared as text, which is exact even where the
layout is lossy (a list item holding a comma). A cell a spreadsheet would run as a formula may be written
as it is (``--raw-cells``) or behind an apostrophe (the default, :mod:`ambiforge.spreadsheet`): either
matches. A split file holds its rows in data order, so it is read
alongside the JSON lines too; its row is compared with data.parquet's as stored (Arrow), and decoded only
where the two differ. Memory stays at a batch per file whatever the release size.

The ``environment`` configuration (``environment/data.jsonl.gz`` and ``data.parquet``, the environment-induced
types) is read the same way, without CSV; a row of an environment-induced type in the default
configuration, or of another type in ``environment/``, is named.
"""

from __future__ import annotations

import csv
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import orjson
import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.parquet as pq
import pyarrow.types as pat

from ambiforge import ambiguity, inputs, spreadsheet
from ambiforge.ambik.csv_io import row_cells
from ambiforge.errors import InputError
from ambiforge.models.schema import schema_errors
from ambiforge.releases import files
from ambiforge.releases.jsonl_form import with_graphs
from ambiforge.releases.record_view import RecordView
from ambiforge.releases.splits import ENVIRONMENT
from ambiforge.releases.verify_error import VerifyError
from ambiforge.releases.verify_world import world_problem
from ambiforge.storage.arrow_schema import CLASS_LABEL_COLUMN, ITEM_ARROW_SCHEMA, class_names_in, table_to_records

BATCH = 256  # rows per Parquet record batch: a row decodes to ~100 KB of Python objects
#: a JSON line longer than this is refused before it is decoded (a release's line is some 10 KB)
MAX_ROW = 64 * 1024 * 1024
SHOWN = 60  # characters of a differing value shown in a message


def short(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= SHOWN else text[: SHOWN - 4] + "...'"


def first_difference(a: Any, b: Any, path: str) -> tuple[str, Any, Any] | None:
    """The first (path, a, b) where two decoded values differ; a key absent on one side counts as None.

    Equal values are the common case and compare in C (``==``); only a difference is walked to name it."""
    if a == b:
        return None
    if isinstance(a, dict) and isinstance(b, dict):
        for key in dict.fromkeys([*a, *b]):
            found = first_difference(a.get(key), b.get(key), f"{path}.{key}" if path else key)
            if found:
                return found
        return None
    if isinstance(a, list) and isinstance(b, list) and len(a) == len(b):
        for n, (x, y) in enumerate(zip(a, b, strict=True)):
            found = first_difference(x, y, f"{path}[{n}]")
            if found:
                return found
        return None
    same = a == b and type(a) is type(b) if isinstance(a, bool) or isinstance(b, bool) else a == b
    return None if same else (path, a, b)


def jsonl_rows(path: Path) -> Iterator[dict[str, Any]]:
    try:
        for n, _, line in files.jsonl_lines(path, limit=MAX_ROW):
            try:
                record = orjson.loads(line)
            except orjson.JSONDecodeError as exc:
                raise VerifyError(f"{path}:{n}: not valid JSON ({exc})") from None
            if not isinstance(record, dict):
                raise VerifyError(f"{path}:{n}: not a JSON object")
            yield record
    except InputError as exc:  # not gzip, cut short: the release's file, not the user's input
        raise VerifyError(str(exc)) from None


def whole_row(data: Stream, record: dict[str, Any], parquet: Stream) -> dict[str, Any]:
    """The JSON lines' row with the scene graphs it leaves out taken from the Parquet file's next row
    (:mod:`ambiforge.releases.jsonl_form`), checked against the item schema and for a world that holds
    together. A problem in a graph that came from the Parquet file is named at its row there."""
    whole = with_graphs(record, parquet.peek())
    from_parquet = whole is not record
    for problem in (*schema_errors(whole)[:1], world_problem(whole)):
        if problem and from_parquet and "graph" in problem.split(":", 1)[0]:
            raise VerifyError(f"{parquet.path}:{parquet.taken + 1}: {problem}")  # its next row, not taken yet
        if problem:
            raise VerifyError(f"{data.path}:{data.taken}: {problem}")
    return whole


def type_difference(found: pa.DataType, expected: pa.DataType, path: str) -> str | None:
    """Where a column's Arrow type departs from the item schema's, as ``path: found X, expected Y``
    (``[]`` steps into a list's elements), so a nested struct is named to the field."""
    if found == expected:
        return None
    if pat.is_struct(found) and pat.is_struct(expected):
        names = [found.field(k).name for k in range(found.num_fields)]
        wanted = [expected.field(k).name for k in range(expected.num_fields)]
        if names != wanted:
            missing = [n for n in wanted if n not in names]
            extra = [n for n in names if n not in wanted]
            detail = (f"missing {', '.join(missing)}" if missing else "") + (
                f"{'; ' if missing else ''}not in the schema {', '.join(extra)}" if extra else ""
            )
            return f"{path}: struct fields differ ({detail or 'in another order'})"
        for k in range(found.num_fields):
            inner = type_difference(found.field(k).type, expected.field(k).type, f"{path}.{wanted[k]}")
            if inner:
                return inner
    if pat.is_list(found) and pat.is_list(expected):
        return type_difference(found.value_type, expected.value_type, f"{path}[]")
    return f"{path}: type {found}, the item schema says {expected}"


def check_columns(path: Path, schema: pa.Schema) -> None:
    """The file's columns are the item schema's, in its order and of its types."""
    expected = [f.name for f in ITEM_ARROW_SCHEMA]
    if schema.names != expected:
        missing = [n for n in expected if n not in schema.names]
        extra = [n for n in schema.names if n not in expected]
        raise VerifyError(
            f"{path}: columns differ from the item schema"
            + (f"; missing {', '.join(missing)}" if missing else "")
            + (f"; not in the schema {', '.join(extra)}" if extra else "")
            + ("" if missing or extra else "; in another order")
        )
    for field in ITEM_ARROW_SCHEMA:
        problem = type_difference(schema.field(field.name).type, field.type, field.name)
        if problem:
            raise VerifyError(f"{path}: column {problem}")


def parquet_tables(path: Path) -> Iterator[pa.Table]:
    """A released Parquet file's rows as stored, a record batch at a time, after checking its columns and
    that every ``ambiguity_type`` is one of the ClassLabel's names in its schema metadata."""
    try:
        pf = pq.ParquetFile(path)
        schema = pf.schema_arrow
        check_columns(path, schema)
        names = class_names_in(schema)
        if names is None:
            raise VerifyError(f"{path}: no ClassLabel names for {CLASS_LABEL_COLUMN} in the schema metadata")
        classes = pa.array(names, type=pa.string())
        row = 0
        for batch in pf.iter_batches(batch_size=BATCH):
            labels = batch.column(CLASS_LABEL_COLUMN)
            outside = pc.invert(pc.fill_null(pc.is_in(labels, value_set=classes), False))
            if len(labels) and pc.any(outside).as_py():
                k = pc.index(outside, True).as_py()
                raise VerifyError(
                    f"{path}:{row + k + 1}: {CLASS_LABEL_COLUMN} {labels[k].as_py()!r} is not one of the "
                    f"ClassLabel's names in the schema metadata ({', '.join(names)})"
                )
            row += len(batch)
            yield pa.Table.from_batches([batch], schema=schema)
    except (pa.ArrowException, OSError, ValueError, KeyError, TypeError) as exc:  # bytes or metadata not ours
        raise VerifyError(f"{path}: not a readable Parquet file ({exc!r})") from None


def _decoded(path: Path, table: pa.Table) -> list[dict[str, Any]]:
    try:
        return table_to_records(table)
    except (pa.ArrowException, ValueError, KeyError, TypeError) as exc:
        raise VerifyError(f"{path}: not a readable Parquet file ({exc!r})") from None


def parquet_rows(path: Path) -> Iterator[tuple[dict[str, Any], pa.Table]]:
    """Each row of a released Parquet file decoded, with the row as stored (a one-row table).

    A row is decoded when it is reached, not with its record batch: a decoded row is thousands of Python
    objects, and a batch of them waiting to be compared outlives enough allocations for the garbage
    collector to move them to its oldest generation, whose collections walk every object of the process.
    Decoding costs the same either way."""
    for table in parquet_tables(path):
        for k in range(table.num_rows):
            row = table.slice(k, 1)
            yield _decoded(path, row)[0], row


def stored_rows(path: Path) -> Iterator[dict[str, Any]]:
    """Each row of a released Parquet file as ``{"id": ..., "stored": one-row table}``, not decoded: a split
    file's row is compared with data.parquet's as stored, and decoded only when the two differ."""
    for table in parquet_tables(path):
        for k, item_id in enumerate(table.column("id").to_pylist()):
            yield {"id": item_id, "stored": table.slice(k, 1)}


def csv_rows(path: Path) -> tuple[list[str], Iterator[list[str]]]:
    """The header (formula-escaped names read back) and an iterator over the data rows."""
    inputs.allow_long_cells()
    fh = path.open(encoding="utf-8", newline="")
    reader = csv.reader(fh)
    try:
        header = [spreadsheet.restore(name) for name in next(reader)]
    except StopIteration:
        fh.close()
        raise VerifyError(f"{path}: empty, no header") from None
    except (csv.Error, UnicodeDecodeError) as exc:
        fh.close()
        raise VerifyError(f"{path}: not a readable CSV file ({exc})") from None

    def rows() -> Iterator[list[str]]:
        with fh:
            try:
                yield from reader
            except (csv.Error, UnicodeDecodeError) as exc:
                raise VerifyError(f"{path}: not a readable CSV file ({exc})") from None

    return header, rows()


class Stream:
    """A file's rows with one-row lookahead and the number of the last row taken (1 = first data row)."""

    def __init__(self, path: Path, rows: Iterator[Any]) -> None:
        self.path, self._rows, self.taken = path, rows, 0
        self._next: Any = None
        self._has_next = False

    def peek(self) -> Any:
        if not self._has_next:
            self._next = next(self._rows, None)
            self._has_next = self._next is not None
        return self._next if self._has_next else None

    def take(self) -> Any:
        value = self.peek()
        self._has_next = False
        if value is not None:
            self.taken += 1
        return value


class ParquetStream(Stream):
    """A Parquet file's rows decoded (``peek``, ``take``), and the last row taken as stored (``stored``)."""

    def __init__(self, path: Path) -> None:
        super().__init__(path, parquet_rows(path))
        self.stored: pa.Table | None = None

    def peek(self) -> Any:
        pair = super().peek()
        return pair[0] if pair is not None else None

    def take(self) -> Any:
        pair = Stream.peek(self)
        self._has_next = False
        if pair is None:
            return None
        self.taken += 1
        self.stored = pair[1]
        return pair[0]


def compare_parquet(stream: Stream, record: dict[str, Any], source: str = "jsonl") -> None:
    """``source``: the JSON lines' file name, as the message names it."""
    other = stream.take()
    found = first_difference(record, other, "")
    if found:
        field, a, b = found
        raise VerifyError(
            f"{stream.path}:{stream.taken}: field {field} differs ({source} {short(a)} vs parquet {short(b)})"
        )


def compare_stored(stream: Stream, record: dict[str, Any], stored: pa.Table | None, source: str = "jsonl") -> None:
    """A split file's next row against ``record``, which matched data.parquet's row ``stored``: a row stored
    as data.parquet's decodes to the same record, so only a row that differs is decoded and compared."""
    row = stream.take()
    if stored is not None and row["stored"].equals(stored):
        return
    other = _decoded(stream.path, row["stored"])[0]
    found = first_difference(record, other, "")
    if found:
        field, a, b = found
        raise VerifyError(
            f"{stream.path}:{stream.taken}: field {field} differs ({source} {short(a)} vs parquet {short(b)})"
        )


def compare_csv(stream: Stream, header: list[str], cells: list[str]) -> None:
    row = stream.take()
    if row is None:
        raise VerifyError(f"{stream.path}: ends after {stream.taken} rows, the JSON lines have more")
    if len(row) != len(header):
        raise VerifyError(f"{stream.path}:{stream.taken}: {len(row)} cells, the header has {len(header)}")
    for column, want, got in zip(header, cells, row, strict=True):
        if want != got and spreadsheet.neutral(want) != got:
            raise VerifyError(
                f"{stream.path}:{stream.taken}: field {column} differs (jsonl {short(want)} vs csv {short(got)})"
            )


def walk(
    folder: Path,
    split_names: list[str],
    visit: Callable[[int, dict[str, Any], RecordView, str], None],
    layout: files.Layout = files.CURRENT,
) -> list[str] | None:
    """Read every row file in lockstep, compare, and call ``visit(row, record, view, split)`` per data row.

    Returns the CSV header of a release that has the AmbiK CSV files (for the caller to check against the
    re-derived one), else None.
    """
    data = Stream(folder / layout.jsonl, jsonl_rows(folder / layout.jsonl))
    parquet = ParquetStream(folder / "data.parquet")
    split_parquet = {
        s: Stream(folder / "splits" / f"{s}.parquet", stored_rows(folder / "splits" / f"{s}.parquet"))
        for s in split_names
    }
    header: list[str] | None = None
    ambik: Stream | None = None
    split_csv: dict[str, Stream] = {}
    if layout.csv:
        header, rows = csv_rows(folder / files.LEGACY_CSV)
        ambik = Stream(folder / files.LEGACY_CSV, rows)
        for s in split_names:
            split_header, split_rows = csv_rows(folder / "splits" / f"{s}.csv")
            if split_header != header:
                raise VerifyError(f"{folder / 'splits' / (s + '.csv')}: header differs from ambik.csv's")
            split_csv[s] = Stream(folder / "splits" / f"{s}.csv", split_rows)
    seen: dict[str, int] = {}
    while (record := data.take()) is not None:
        n, item_id = data.taken, record["id"]
        first_seen(seen, data.path, n, item_id)
        if ambiguity.level(record["ambiguity_type"]) == ENVIRONMENT:
            raise VerifyError(
                f"{data.path}:{n}: item {item_id} is {record['ambiguity_type']}, an environment-induced type: "
                f"its rows belong in {ENVIRONMENT}/{layout.jsonl}, not in the default (AmbiK) configuration"
            )
        if parquet.peek() is None:
            raise VerifyError(f"{parquet.path}: ends after {parquet.taken} rows, {data.path.name} has more")
        record = whole_row(data, record, parquet)
        compare_parquet(parquet, record, data.path.name)
        view = RecordView(record)
        cells = row_cells(view, header) if header is not None else []  # type: ignore[arg-type]
        if ambik is not None and header is not None:
            compare_csv(ambik, header, cells)
        split = next((s for s, st in split_parquet.items() if (st.peek() or {}).get("id") == item_id), None)
        if split is None:
            raise VerifyError(
                f"{data.path}:{n}: id {item_id} is in no split (each of splits/*.parquet holds its rows in data order)"
            )
        compare_stored(split_parquet[split], record, parquet.stored, data.path.name)
        if split in split_csv and header is not None:
            compare_csv(split_csv[split], header, cells)
        visit(n, record, view, split)
    for stream in (parquet, *([ambik] if ambik else []), *split_parquet.values(), *split_csv.values()):
        extra = stream.peek()
        if extra is not None:
            shown = extra.get("id") if isinstance(extra, dict) else (extra[0] if extra else "")
            raise VerifyError(
                f"{stream.path}:{stream.taken + 1}: row {shown} is not in {data.path.name} (or not in data order)"
            )
    return header


def first_seen(seen: dict[str, int], path: Path, row: int, item_id: str) -> None:
    """Records the row of ``item_id``; a second row with the same id is an error naming both."""
    if item_id in seen:
        raise VerifyError(f"{path}:{row}: id {item_id} repeats row {seen[item_id]}")
    seen[item_id] = row


def walk_environment(
    folder: Path, visit: Callable[[int, dict[str, Any], RecordView], None], layout: files.Layout = files.CURRENT
) -> None:
    """``environment/data.jsonl.gz`` against ``environment/data.parquet``, row by row; ``visit(row, record,
    view)`` per row. An id may not repeat within the configuration (nor, checked by the caller, be in the
    default one)."""
    base = folder / ENVIRONMENT
    data = Stream(base / layout.jsonl, jsonl_rows(base / layout.jsonl))
    parquet = ParquetStream(base / "data.parquet")
    seen: dict[str, int] = {}
    while (record := data.take()) is not None:
        n, item_id = data.taken, record["id"]
        first_seen(seen, data.path, n, item_id)
        if ambiguity.level(record["ambiguity_type"]) != ENVIRONMENT:
            raise VerifyError(
                f"{data.path}:{n}: item {item_id} is {record['ambiguity_type']}, not an environment-induced type: "
                f"its rows belong in {layout.jsonl} (the default configuration)"
            )
        if parquet.peek() is None:
            raise VerifyError(f"{parquet.path}: ends after {parquet.taken} rows, {data.path.name} has more")
        record = whole_row(data, record, parquet)
        compare_parquet(parquet, record, data.path.name)
        visit(n, record, RecordView(record))
    extra = parquet.peek()
    if extra is not None:
        raise VerifyError(
            f"{parquet.path}:{parquet.taken + 1}: row {extra.get('id')} is not in {data.path} (or not in data order)"
        )
