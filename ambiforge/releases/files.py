"""The names of a release's row files, and reading and writing its gzip-compressed JSON lines.

A release stores each row once in full, in Parquet (``data.parquet``, ``splits/*.parquet``,
``environment/data.parquet``), and once as JSON lines without the scene graphs, gzip-compressed
(``data.jsonl.gz``, ``environment/data.jsonl.gz``): pandas (``pd.read_json(path, lines=True)``), ``datasets``
(``load_dataset("json", ...)``) and DuckDB (``read_json``) read ``.gz`` directly, and ``zcat`` pipes it to
``jq``. The AmbiK CSV layout is an export (``ambiforge export-ambik``), derived from the rows with the same
function that wrote it into releases before; a release is at most a few times its Parquet file
(docs/review-and-release.md, "What a release holds, and why").

The gzip stream is written without a file name or time in its header, so the same rows give the same bytes
(and checksums) whenever they are released. Releases written before keep ``data.jsonl`` and the AmbiK CSV
files; :func:`layout` tells the two apart by the files a manifest lists, so they verify as they did.
"""

from __future__ import annotations

import gzip
import io
import zlib
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any

import orjson

from ambiforge import inputs
from ambiforge.errors import InputError

#: The JSON lines of a configuration (the default one at the top, ``environment/`` beside it).
JSONL = "data.jsonl.gz"
#: What releases written before this layout hold instead (uncompressed), with the AmbiK CSV files.
LEGACY_JSONL = "data.jsonl"
LEGACY_CSV = "ambik.csv"
#: zlib's default: within 2% of level 9's size here, at about a third of its time.
LEVEL = 6


@dataclass(frozen=True)
class Layout:
    """Which files a release's rows are in: ``jsonl`` (the file name in each configuration's folder) and
    whether the AmbiK CSV files (``ambik.csv``, ``splits/<name>.csv``) are part of it."""

    jsonl: str
    csv: bool

    def split_files(self, name: str) -> list[str]:
        return [f"splits/{name}.parquet", *([f"splits/{name}.csv"] if self.csv else [])]


CURRENT = Layout(JSONL, csv=False)
LEGACY = Layout(LEGACY_JSONL, csv=True)


def layout(listed: set[str] | list[str]) -> Layout:
    """The layout of a release whose manifest lists ``listed`` (paths relative to the folder)."""
    return LEGACY if LEGACY_JSONL in listed and JSONL not in listed else CURRENT


def jsonl_path(folder: Path) -> Path:
    """The JSON lines of the configuration in ``folder`` (a release folder or its ``environment/``): the
    compressed file, or the plain one of a release written before."""
    compressed = folder / JSONL
    return compressed if compressed.exists() or not (folder / LEGACY_JSONL).exists() else folder / LEGACY_JSONL


def open_jsonl_writer(path: Path) -> IO[bytes]:
    """A binary file that gzip-compresses what is written into ``path``, with a header that names no file
    and no time (the same rows, the same bytes); closing it closes the file."""
    raw = path.open("wb")
    return _Closing(gzip.GzipFile(filename="", mode="wb", fileobj=raw, compresslevel=LEVEL, mtime=0), raw)


def open_jsonl_reader(path: Path) -> IO[bytes]:
    """The lines of ``path`` as bytes, decompressed when it ends in ``.gz``."""
    if path.suffix.lower() == ".gz":
        return gzip.open(path, "rb")
    return path.open("rb")


def jsonl_lines(path: Path, limit: int = inputs.MAX_LINE) -> Iterator[tuple[int, int, bytes]]:
    """``(line number, offset of the line in the decompressed text, line)`` of a release's JSON lines, each
    line at most ``limit`` bytes; a file that is not gzip (or is cut short) is one line naming it."""
    inputs.regular_file(path)
    try:
        with open_jsonl_reader(path) as fh:
            lineno = offset = 0
            while line := fh.readline(limit + 1):
                lineno += 1
                if len(line) > limit and not line.endswith(b"\n"):
                    raise InputError(str(path), f"line {lineno}", f"longer than {limit} bytes (one record per line)")
                yield lineno, offset, line
                offset += len(line)
    except (OSError, EOFError, zlib.error) as exc:
        raise InputError(str(path), "", f"not a readable gzip file ({exc})") from None


def read_rows(path: Path) -> list[dict[str, Any]]:
    """Every row of a release's JSON lines (``data.jsonl.gz`` or a plain ``data.jsonl``); a line that is not
    a JSON object is one line naming the file and line."""
    rows = []
    for lineno, _, line in jsonl_lines(path):
        if not line.strip():
            continue
        try:
            record = orjson.loads(line)
        except orjson.JSONDecodeError as exc:
            raise InputError(str(path), f"line {lineno}", f"not valid JSON: {exc}") from None
        if not isinstance(record, dict):
            raise InputError(str(path), f"line {lineno}", "expected a JSON object")
        rows.append(record)
    return rows


class _Closing(io.BufferedIOBase):
    """A gzip stream that also closes the file under it (GzipFile leaves a given ``fileobj`` open)."""

    def __init__(self, stream: gzip.GzipFile, raw: IO[bytes]) -> None:
        super().__init__()
        self._stream, self._raw = stream, raw

    def writable(self) -> bool:
        return True

    def write(self, data: Any) -> int:
        return self._stream.write(data)

    def close(self) -> None:
        if not self.closed:
            try:
                self._stream.close()
            finally:
                self._raw.close()
                super().close()
