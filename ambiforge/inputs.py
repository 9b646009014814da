"""Reading a file someone handed us, within limits: a regular file (never a pipe, a device or a directory,
which block or never end: ``--catalog /dev/zero``, a FIFO given to ``validate``), of a bounded size, so a
mistaken or hostile path is one line naming it instead of a hang, a MemoryError or all the machine's memory.

The limits, per kind of input (docs/secrets-and-hardening.md lists them):

- ``CATALOG``, ``CONFIG``, ``MANIFEST``, ``PERSONA``: read whole, so small: 16 MiB, 1 MiB, 64 MiB, 64 KiB;
- item files (JSONL, Parquet, AmbiK CSV) are streamed and only need to be regular files; a JSONL line is
  capped at ``MAX_LINE`` bytes and a CSV cell at ``MAX_CELL`` characters (the same figure: a field too long
  for one format is too long for the other, so an item that fits in data.jsonl fits in ambik.csv).
"""

from __future__ import annotations

import os
import stat
from collections.abc import Iterator
from pathlib import Path

from ambiforge.errors import InputError

MiB = 1024 * 1024
CATALOG = 16 * MiB
CONFIG = 1 * MiB
MANIFEST = 64 * MiB
PERSONA = 64 * 1024
#: One item's JSONL line; AmbiK's longest row is under 8 KB.
MAX_LINE = 8 * MiB
#: One CSV cell (Python's csv module would stop at 131,072 characters, less than a JSONL line may hold).
MAX_CELL = MAX_LINE


def allow_long_cells() -> None:
    """Let the csv module read cells up to ``MAX_CELL`` (its limit is process-wide and only ever raised)."""
    import csv

    if csv.field_size_limit() < MAX_CELL:
        csv.field_size_limit(MAX_CELL)


def regular_file(path: str | Path, what: str = "file") -> Path:
    """``path`` if it is a regular file (a link to one is fine); else the InputError to print."""
    p = Path(path)
    try:
        mode = os.stat(p).st_mode
    except FileNotFoundError:
        raise InputError(str(p), "", f"{what} not found") from None
    except OSError as exc:
        raise InputError(str(p), "", f"cannot be read: {exc.strerror or exc}") from None
    if stat.S_ISDIR(mode):
        raise InputError(str(p), "", f"a folder, not a {what}")
    if not stat.S_ISREG(mode):
        raise InputError(str(p), "", "not a regular file (a pipe, socket or device), so it is not read")
    return p


def read_bytes(path: str | Path, limit: int, what: str = "file") -> bytes:
    """The whole file, refused beyond ``limit`` bytes (checked before reading, and while reading, in case
    the file grows)."""
    p = regular_file(path, what)
    try:
        size = p.stat().st_size
        if size > limit:
            raise InputError(str(p), "", f"{size} bytes; a {what} may have at most {limit}")
        with p.open("rb") as fh:
            data = fh.read(limit + 1)
    except OSError as exc:
        raise InputError(str(p), "", f"cannot be read: {exc.strerror or exc}") from None
    if len(data) > limit:
        raise InputError(str(p), "", f"more than {limit} bytes; a {what} may have at most {limit}")
    return data


def read_text(path: str | Path, limit: int, what: str = "file") -> str:
    """:func:`read_bytes` decoded as UTF-8; invalid UTF-8 is one line naming the byte."""
    data = read_bytes(path, limit, what)
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise InputError(str(path), "", f"not UTF-8 text (byte {exc.start + 1})") from None


def lines(path: str | Path, what: str = "file", limit: int = MAX_LINE) -> Iterator[tuple[int, bytes]]:
    """``(line number, line)`` of a regular file, each line at most ``limit`` bytes: a file without line
    breaks is refused at its first ``limit`` bytes instead of being read whole into memory."""
    p = regular_file(path, what)
    with p.open("rb") as fh:
        lineno = 0
        while True:
            line = fh.readline(limit + 1)
            if not line:
                return
            lineno += 1
            if len(line) > limit and not line.endswith(b"\n"):
                raise InputError(str(p), f"line {lineno}", f"longer than {limit} bytes (one record per line)")
            yield lineno, line


def csv_cell_problem(value: str) -> str | None:
    """Why a CSV cell is refused: a NUL character (no spreadsheet or CSV reader agrees on it)."""
    if "\0" in value:
        return "a NUL character"
    return None
