"""Checking a file we are asked to write before anything is read or written, so a slip of the command line
cannot destroy data: an output that is one of the inputs (``export-ambik items.jsonl --out items.jsonl``),
an output inside a release (``curated/<version>/`` is immutable once written, its checksums sealed), or a
suffix that does not say which format would be written (``--out out.txt`` silently getting JSONL).
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Sequence
from pathlib import Path

from ambiforge.errors import ConfigError

#: The file a release folder always holds; any folder with one is treated as a release.
MANIFEST = "manifest.json"


def _resolved(path: Path) -> Path:
    return Path(os.path.realpath(path))


def _same(a: Path, b: Path) -> bool:
    if _resolved(a) == _resolved(b):
        return True
    try:
        return a.exists() and b.exists() and os.path.samefile(a, b)
    except OSError:
        return False


def check_output(
    path: str | os.PathLike[str],
    option: str,
    *,
    suffixes: Sequence[str],
    inputs: Iterable[str | os.PathLike[str]] = (),
    curated: str | os.PathLike[str] | None = None,
) -> Path:
    """``path`` if it may be written; else the ConfigError (exit 2) naming ``option`` and why.

    ``suffixes``: the formats the writer knows (``.jsonl``, ``.parquet``); ``inputs``: the files read;
    ``curated``: the releases folder (``[paths] curated``), any folder under which is a release."""
    out = Path(path)
    if out.is_dir():
        raise ConfigError(f"{option}: {out} is a folder, not a file")
    parent = next((p for p in out.parents if p.exists()), None)
    if parent is not None and not parent.is_dir():
        raise ConfigError(f"{option}: {parent} is a file, not a folder")
    for given in inputs:
        if _same(out, Path(given)):
            raise ConfigError(f"{option}: {out} is also the input; writing it would destroy what is read")
    where = _resolved(out)
    if curated is not None:
        root = _resolved(Path(curated))
        if root in where.parent.parents:  # a folder under curated/ (a file directly in it is no release's)
            raise ConfigError(
                f"{option}: {out} is inside the release folder {where.parent}; releases are never changed"
            )
    for folder in where.parents:
        if (folder / MANIFEST).is_file():
            raise ConfigError(f"{option}: {out} is inside the release folder {folder}; releases are never changed")
    if out.suffix.lower() not in suffixes:
        raise ConfigError(
            f"{option}: {out} does not end in {' or '.join(suffixes)}, so the format to write is not clear"
        )
    return out
