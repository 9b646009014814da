"""What changed between two releases: items added, removed (with the reason when the release knows it:
rejected in review, waiting for adjudication...), and changed (by id and field).

Provenance is left out of the comparison: the same pair rebuilt by another run is not a change. So are the
scene graphs, which ``data.jsonl.gz`` does not hold (:mod:`ambiforge.releases.jsonl_form`): releases are
compared as their JSON lines, and a kitchen that changes changes the world's claims with it.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import orjson

from ambiforge import inputs
from ambiforge.errors import InputError
from ambiforge.releases import files
from ambiforge.releases.jsonl_form import jsonl_form
from ambiforge.rendering import render

IGNORED_FIELDS = {"provenance"}


@dataclass
class Changes:
    old: str | None
    new: str
    added: list[str]
    removed: list[str]
    changed: dict[str, list[str]]
    reasons: dict[str, str] = field(default_factory=dict)  # id -> why it was removed, or added unreviewed

    def counts(self) -> dict[str, int]:
        return {"added": len(self.added), "removed": len(self.removed), "changed": len(self.changed)}


def _changed_fields(before: dict[str, Any], after: dict[str, Any]) -> list[str]:
    before, after = jsonl_form(before), jsonl_form(after)
    return sorted(
        k for k in (before.keys() | after.keys()) if k not in IGNORED_FIELDS and before.get(k) != after.get(k)
    )


def compare(
    old: Iterable[dict[str, Any]], new: Iterable[dict[str, Any]], old_name: str | None, new_name: str
) -> Changes:
    before = {r["id"]: r for r in old}
    after = {r["id"]: r for r in new}
    changed = {}
    for item_id in sorted(before.keys() & after.keys()):
        fields = _changed_fields(before[item_id], after[item_id])
        if fields:
            changed[item_id] = fields
    return Changes(
        old=old_name,
        new=new_name,
        added=sorted(after.keys() - before.keys()),
        removed=sorted(before.keys() - after.keys()),
        changed=changed,
    )


def digest(record: dict[str, Any]) -> bytes:
    """16 bytes that equal records (provenance aside) share: keys sorted at every level, so only a value
    differing changes it. Records with different digests are compared field by field, so a digest that
    differs for equal values (1 and 1.0) costs a comparison, never a wrong entry."""
    kept = {k: v for k, v in jsonl_form(record).items() if k not in IGNORED_FIELDS}
    return hashlib.blake2b(orjson.dumps(kept, option=orjson.OPT_SORT_KEYS), digest_size=16).digest()


def jsonl_digests(path: Path) -> dict[str, tuple[bytes, int]]:
    """id -> (digest, offset of its line in the decompressed text) for a release's JSON lines
    (``data.jsonl.gz``, or a plain ``data.jsonl`` written before), read one line at a time."""
    found: dict[str, tuple[bytes, int]] = {}
    for _, offset, line in files.jsonl_lines(path):
        if line.strip():
            record = orjson.loads(line)
            found[record["id"]] = (digest(record), offset)
    return found


def compare_streamed(
    old_paths: Sequence[Path],
    new: Mapping[str, bytes],
    load_new: Callable[[list[str]], Iterable[dict[str, Any]]],
    old_name: str | None,
    new_name: str,
) -> Changes:
    """:func:`compare` without holding either release: ``new`` maps id -> :func:`digest` in release order,
    ``load_new(ids)`` reads those records again; the previous release is read from ``old_paths`` (its
    JSON lines, and environment/'s when it has that configuration) one line at a time, twice: once for the
    digests, once more for the lines of items whose digests differ, which alone are compared whole."""
    before: dict[str, tuple[bytes, int, Path]] = {}
    for path in old_paths:
        before.update({i: (d, offset, path) for i, (d, offset) in jsonl_digests(path).items()})
    suspects = sorted(i for i in before.keys() & new.keys() if before[i][0] != new[i])
    changed = {}
    if suspects:
        newer = {r["id"]: r for r in load_new(suspects)}
        for path in old_paths:
            # a compressed file is read forward only: its suspects' lines are found by offset in one pass
            wanted = {before[i][1]: i for i in suspects if before[i][2] == path}
            for _, offset, line in files.jsonl_lines(path) if wanted else ():
                item_id = wanted.get(offset)
                if item_id is not None:
                    fields = _changed_fields(orjson.loads(line), newer[item_id])
                    if fields:
                        changed[item_id] = fields
        changed = dict(sorted(changed.items()))
    return Changes(
        old=old_name,
        new=new_name,
        added=sorted(new.keys() - before.keys()),
        removed=sorted(before.keys() - new.keys()),
        changed=changed,
    )


def release_records(folder: Path) -> list[dict[str, Any]]:
    """A release's rows: its JSON lines, then environment/'s when it has that configuration."""
    extra = files.jsonl_path(folder / "environment")
    return [*files.read_rows(files.jsonl_path(folder)), *(files.read_rows(extra) if extra.is_file() else [])]


def compare_releases(old: Path, new: Path) -> Changes:
    changes = compare(release_records(old), release_records(new), old.name, new.name)
    manifest = new / "manifest.json"
    if manifest.exists():  # the reasons the release recorded (only meaningful against its previous version)
        recorded = read_manifest(manifest)
        if recorded.get("changes", {}).get("previous") == old.name:
            changes.reasons = recorded.get("change_reasons") or {}
    return changes


def read_manifest(path: Path) -> dict[str, Any]:
    """A release's manifest as a mapping; a file that is not one is one line naming it."""
    text = inputs.read_text(path, inputs.MANIFEST, "manifest")
    try:
        recorded = json.loads(text)
    except (json.JSONDecodeError, RecursionError) as exc:
        reason = "nested too deeply" if isinstance(exc, RecursionError) else exc.msg
        raise InputError(str(path), "", f"not valid JSON ({reason})") from None
    if not isinstance(recorded, dict):
        raise InputError(str(path), "", "not a JSON object")
    return recorded


def render_changelog(changes: Changes) -> str:
    return render("changelog.md.j2", c=changes)
