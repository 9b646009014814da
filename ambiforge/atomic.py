"""Atomic file writes: write next to the target, fsync, then rename.

A crash or a bad input never leaves a half-written file where a good one was: readers see either the old
file or the new one.
"""

from __future__ import annotations

import contextlib
import json
import os
import tempfile
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import IO, Any

import orjson


@contextlib.contextmanager
def atomic_path(target: str | os.PathLike[str]) -> Iterator[Path]:
    """Yield a temporary path beside ``target``; rename it onto ``target`` only if the block succeeds."""
    target = Path(target)
    target.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=target.parent)
    os.close(fd)
    tmp_path = Path(tmp)
    os.chmod(tmp_path, 0o666 & ~_umask())  # mkstemp makes 0600; a dataset file is meant to be read
    try:
        yield tmp_path
        with open(tmp_path, "rb") as fh:
            os.fsync(fh.fileno())
        os.replace(tmp_path, target)
    finally:
        if tmp_path.exists():
            tmp_path.unlink()


def _umask() -> int:
    """The process's umask, read without setting it where the system allows: ``os.umask`` can only be read
    by setting it, and a file another thread creates in between would get mode 0666."""
    try:
        with open("/proc/self/status", encoding="ascii") as fh:
            for line in fh:
                if line.startswith("Umask:"):
                    return int(line.split()[1], 8)
    except OSError:
        pass
    mask = os.umask(0)
    os.umask(mask)
    return mask


def write_atomic(target: str | os.PathLike[str], writer: Callable[[IO[str]], object]) -> Path:
    """Write text through ``writer`` atomically."""
    with atomic_path(target) as tmp, open(tmp, "w", encoding="utf-8", newline="\n") as fh:
        writer(fh)
    return Path(target)


def write_text_atomic(target: str | os.PathLike[str], text: str) -> Path:
    return write_atomic(target, lambda fh: fh.write(text))


def write_json_atomic(target: str | os.PathLike[str], data: Any) -> Path:
    return write_text_atomic(target, json.dumps(data, indent=2, ensure_ascii=False, sort_keys=False) + "\n")


def jsonl_line(record: dict[str, Any]) -> str:
    return json.dumps(record, ensure_ascii=False, separators=(",", ":")) + "\n"


def write_jsonl_atomic(target: str | os.PathLike[str], records: Iterable[dict[str, Any]]) -> Path:
    def _write(fh: IO[str]) -> None:
        for record in records:
            fh.write(jsonl_line(record))

    return write_atomic(target, _write)


@contextlib.contextmanager
def jsonl_writer(target: str | os.PathLike[str]) -> Iterator[Callable[[dict[str, Any]], None]]:
    """A function writing one record a line, for records that arrive over a long stage (a build's items):
    written to a temporary file beside ``target``, renamed onto it only if the block succeeds. Compact UTF-8
    lines as :func:`write_jsonl_atomic` writes them, made by orjson: a build writes tens of KB an item, and
    the standard library's encoder took a sixth of an offline pair's time."""
    with atomic_path(target) as tmp, open(tmp, "wb") as fh:

        def write(record: dict[str, Any]) -> None:
            fh.write(orjson.dumps(record, option=orjson.OPT_NON_STR_KEYS | orjson.OPT_APPEND_NEWLINE))

        yield write
