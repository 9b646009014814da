"""sha256 and size of every released file."""

from __future__ import annotations

import hashlib
from pathlib import Path
from typing import Any


def sha256_of(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as fh:
        for chunk in iter(lambda: fh.read(1 << 20), b""):
            digest.update(chunk)
    return digest.hexdigest()


def file_entries(folder: Path, exclude: set[str]) -> list[dict[str, Any]]:
    """One entry per file under ``folder`` (posix relative path, sha256, bytes), sorted by path."""
    entries = []
    for path in sorted(p for p in folder.rglob("*") if p.is_file()):
        rel = path.relative_to(folder).as_posix()
        if rel not in exclude:
            entries.append({"path": rel, "sha256": sha256_of(path), "bytes": path.stat().st_size})
    return entries
