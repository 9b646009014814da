"""Items on disk. JSONL is the source of truth (one record a line, stable key order, so two runs with the
same seed are byte-identical); Parquet is the same rows for analysis tools.

Reading reports the file and line of the first bad record instead of a traceback.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import pyarrow as pa
import pyarrow.parquet as pq
from pydantic import ValidationError

from ambiforge import inputs
from ambiforge.atomic import atomic_path, write_jsonl_atomic
from ambiforge.errors import InputError
from ambiforge.models import Item
from ambiforge.storage.arrow_schema import items_to_table, table_to_records


def write_items_jsonl(path: str | Path, items: Iterable[Item]) -> Path:
    return write_jsonl_atomic(path, (i.to_record() for i in items))


def write_items_parquet(path: str | Path, items: Iterable[Item]) -> Path:
    table = items_to_table(items)
    with atomic_path(path) as tmp:
        pq.write_table(table, tmp, compression="zstd")
    return Path(path)


def read_records(path: str | Path) -> list[dict[str, Any]]:
    """Raw records from ``.jsonl`` or ``.parquet``; errors name the file and line."""
    p = Path(path)
    if not p.exists():
        raise InputError(str(p), "", "file not found")
    inputs.regular_file(p)
    if p.suffix.lower() == ".parquet":
        try:
            return table_to_records(pq.read_table(p))
        except (pa.ArrowInvalid, OSError) as exc:
            raise InputError(str(p), "", f"not a readable Parquet file: {exc}") from None
    records: list[dict[str, Any]] = []
    try:
        for lineno, raw in inputs.lines(p):  # one record per line, each bounded (ambiforge.inputs)
            try:
                line = raw.decode("utf-8")
            except UnicodeDecodeError as exc:
                raise InputError(str(p), f"line {lineno}", f"not UTF-8 text (byte {exc.start + 1})") from None
            if not line.strip():
                continue
            try:
                record = json.loads(line)
            except json.JSONDecodeError as exc:
                raise InputError(str(p), f"line {lineno}", f"not valid JSON: {exc.msg}") from None
            except RecursionError:
                raise InputError(str(p), f"line {lineno}", "JSON nested too deeply") from None
            if not isinstance(record, dict):
                raise InputError(str(p), f"line {lineno}", "expected a JSON object")
            records.append(record)
    except OSError as exc:
        raise InputError(str(p), "", f"cannot be read: {exc.strerror or exc}") from None
    return records


def read_items(path: str | Path) -> list[Item]:
    items = []
    for n, record in enumerate(read_records(path), start=1):
        try:
            items.append(Item.model_validate(record))
        except ValidationError as exc:
            first = exc.errors()[0]
            where = ".".join(str(x) for x in first["loc"])
            # a release's data.jsonl carries no scene graph (data.parquet has it): say where to read instead
            hint = " (a release keeps the scene graphs in data.parquet only: read that file)"
            hint = hint if where == "world.graph" else ""
            raise InputError(
                str(path), f"record {n} (id {record.get('id')!r})", f"{where}: {first['msg']}{hint}"
            ) from None
    return items
