"""The record of every call (``raw/<run-id>/calls.jsonl``) and the cache that keeps a call from being paid
for twice (``<raw>/.llm-cache/``, shared by all runs).

The log is append-only: each record is one ``write`` on a file opened with O_APPEND, so threads and worker
processes appending at once never interleave lines, and a killed run leaves at worst its last line torn
(readers skip it). The cache holds one file per request hash, written to a temporary name and renamed: a
reply is cached as soon as it arrives and before it is used, so a run killed right after a paid call
finds it on restart.
"""

from __future__ import annotations

import contextlib
import json
import os
import threading
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from ambiforge.config.build import BuildOptions

CALLS_FILE = "calls.jsonl"


class CallLog:
    def __init__(self, path: Path) -> None:
        self.path = path
        self._lock = threading.Lock()

    def append(self, record: dict[str, Any]) -> None:
        line = (json.dumps(record, ensure_ascii=False, sort_keys=False) + "\n").encode("utf-8")
        self.path.parent.mkdir(parents=True, exist_ok=True)
        with self._lock:
            fd = os.open(self.path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
            try:
                os.write(fd, line)
            finally:
                os.close(fd)


def read_calls(path: Path) -> Iterator[dict[str, Any]]:
    """The records in a call log; a torn last line (a killed run) is skipped."""
    if not path.exists():
        return
    with path.open(encoding="utf-8") as fh:
        for line in fh:
            if not line.strip():
                continue
            try:
                yield json.loads(line)
            except json.JSONDecodeError:
                continue


class CallCache:
    """Successful replies by request hash."""

    def __init__(self, directory: Path) -> None:
        self.directory = directory

    def _path(self, digest: str) -> Path:
        return self.directory / digest[:2] / f"{digest}.json"

    def get(self, digest: str) -> dict[str, Any] | None:
        path = self._path(digest)
        if not path.exists():
            return None
        try:
            return json.loads(path.read_text(encoding="utf-8"))
        except (ValueError, OSError):  # ValueError: not JSON, or not UTF-8
            return None  # a damaged entry is a miss, never an error

    def put(self, digest: str, entry: dict[str, Any]) -> None:
        """Written under a temporary name and renamed, so no reader sees half an entry and a killed run's
        entries are all there. Not flushed to the disk (``fsync``, as the run's own files are): only a crash
        of the machine can lose an entry or leave it torn, which :meth:`get` takes as a miss (the call is
        paid again), where a flush would cost every call a disk write and about 0.7 ms of CPU."""
        path = self._path(digest)
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_name(f".{path.name}.{uuid.uuid4().hex}.tmp")
        data = (json.dumps(entry, indent=2, ensure_ascii=False) + "\n").encode("utf-8")
        try:
            fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666)  # the umask applies, as to any file
            with os.fdopen(fd, "wb") as fh:
                fh.write(data)
            os.replace(tmp, path)
        except BaseException:
            with contextlib.suppress(OSError):
                tmp.unlink()
            raise


def llm_cache_dir(options: BuildOptions) -> Path:
    """Shared by every run under ``options.out``, so a request paid for in one run is free in the next."""
    if options.llm is not None and options.llm.cache_dir:
        return Path(options.llm.cache_dir)
    return Path(options.out) / ".llm-cache"
