"""One writer per folder: ``raw/<run-id>/.lock`` while a build writes a run, and a lock per release
version while a release writes it (kept outside ``curated/``, which a refused release must leave untouched).

The lock is ``fcntl.flock`` on the lock file. The kernel drops it when the holder's process dies, however it
dies (SIGKILL included), so a lock left by a dead process is taken over by the next writer without any
guessing from pids or times; the pid, host and start time written into the file only serve the refusal
message. Two builds of the same run id would otherwise both pay for the same calls and append to the same
``calls.jsonl`` (a hostile test saw half the requests of a build paid twice).

``flock`` is per open file description, so a second lock of the same folder in the same process is refused
too (a scheduled build and a manual one share nothing but the folder). One exception, asked for with
``reentrant=True``: a block nested in one that holds the lock in the same context (the CLI holds the
run's lock, then calls the build flow, which takes it too so that deployment and scheduled runs hold it
as well) goes through without locking again.
"""

from __future__ import annotations

import fcntl
import json
import os
import socket
from collections.abc import Iterator
from contextlib import AbstractContextManager, contextmanager
from contextvars import ContextVar
from datetime import UTC, datetime
from pathlib import Path
from typing import IO

from ambiforge.errors import AmbiforgeError

LOCK_FILE = ".lock"
#: Lock files held by this context (the thread, or the task a flow runs in, and what it calls).
_held: ContextVar[frozenset[Path]] = ContextVar("ambiforge_held_locks", default=frozenset())


class FolderBusy(AmbiforgeError):
    """Another process holds the folder's lock; nothing was written. Exit 2: the command was refused
    before any work, like a bad argument."""


def holder_text(path: Path) -> str:
    """``pid 123 on host since 2026-11-23T04:00:00+00:00`` from the lock file, or what is known."""
    try:
        info = json.loads(path.read_text(encoding="utf-8"))
        return f"pid {info['pid']} on {info['host']} since {info['started_at']}"
    except (OSError, ValueError, KeyError, TypeError):
        return "another process"


@contextmanager
def folder_lock(
    directory: str | os.PathLike[str], what: str, lock_name: str = LOCK_FILE, reentrant: bool = False
) -> Iterator[Path]:
    """Hold ``directory/lock_name`` exclusively for the block, or raise :class:`FolderBusy` at once
    naming the holder. ``what`` says what is locked in the message (``run r1``, ``release v1.2.0``).
    ``reentrant``: inside a block of this context that holds the lock already, pass through."""
    folder = Path(directory)
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / lock_name
    if reentrant and path.resolve() in _held.get():  # nested in the block that holds it: already ours
        yield path
        return
    handle: IO[str] = open(path, "a+", encoding="utf-8")  # noqa: SIM115 - held for the whole block
    try:
        try:
            fcntl.flock(handle.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            holder = holder_text(path)
            raise FolderBusy(f"{path}: {what} is being written by {holder}; wait for it or stop it") from None
        info = {
            "pid": os.getpid(),
            "host": socket.gethostname(),
            "started_at": datetime.now(UTC).isoformat(timespec="seconds"),
        }
        handle.seek(0)
        handle.truncate()
        handle.write(json.dumps(info))
        handle.flush()
        token = _held.set(_held.get() | {path.resolve()})
        try:
            yield path
        finally:
            _held.reset(token)
            # Emptied, not removed: unlinking a flocked file lets a third process lock a new inode while a
            # second one still waits on the old one.
            handle.seek(0)
            handle.truncate()
            handle.flush()
    finally:
        handle.close()  # releases the flock


def run_lock(directory: str | os.PathLike[str], run_id: str, reentrant: bool = False) -> AbstractContextManager[Path]:
    """The lock of one run folder (``raw/<run-id>/.lock``)."""
    return folder_lock(directory, f"run {run_id}", reentrant=reentrant)


def release_lock(curated: str | os.PathLike[str], version: str) -> AbstractContextManager[Path]:
    """The lock of one release version, taken before its ``.tmp-*`` folder exists, so two releases of the
    same version never write at once. It lives in the machine's temporary folder, named after the
    ``curated/`` folder and the version: a refused release leaves ``curated/`` exactly as it was."""
    import hashlib
    import tempfile

    key = hashlib.sha256(str(Path(curated).resolve()).encode()).hexdigest()[:16]
    return folder_lock(Path(tempfile.gettempdir()) / "ambiforge-locks", f"release {version}", f"{key}-{version}.lock")


def remove_stale_release_tmp(curated: str | os.PathLike[str], version: str) -> list[Path]:
    """Remove ``curated/.tmp-<version>-*`` folders left by a release that was killed. Call it while
    holding :func:`release_lock` for ``version``: no live release of that version can own them then.
    Returns the folders removed."""
    import shutil

    removed = []
    for tmp in sorted(Path(curated).glob(f".tmp-{version}-*")):
        if tmp.is_dir() and not tmp.is_symlink():
            shutil.rmtree(tmp, ignore_errors=True)
            removed.append(tmp)
    return removed
