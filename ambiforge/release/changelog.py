"""What changed between two releases: items added, removed (with the reason when the release knows it:
rejected in review, waiting for adjudication...), and changed (by id and field).

Provenance is left out of the comparison: the same pair rebuilt by another run is not a change.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ambiforge.reports import render
from ambiforge.storage import read_records

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


def compare(
    old: Iterable[dict[str, Any]], new: Iterable[dict[str, Any]], old_name: str | None, new_name: str
) -> Changes:
    before = {r["id"]: r for r in old}
    after = {r["id"]: r for r in new}
    changed = {}
    for item_id in sorted(before.keys() & after.keys()):
        fields = sorted(
            k
            for k in (before[item_id].keys() | after[item_id].keys())
            if k not in IGNORED_FIELDS and before[item_id].get(k) != after[item_id].get(k)
        )
        if fields:
            changed[item_id] = fields
    return Changes(
        old=old_name,
        new=new_name,
        added=sorted(after.keys() - before.keys()),
        removed=sorted(before.keys() - after.keys()),
        changed=changed,
    )


def compare_releases(old: Path, new: Path) -> Changes:
    changes = compare(read_records(old / "data.jsonl"), read_records(new / "data.jsonl"), old.name, new.name)
    manifest = new / "manifest.json"
    if manifest.exists():  # the reasons the release recorded (only meaningful against its previous version)
        recorded = json.loads(manifest.read_text(encoding="utf-8"))
        if recorded.get("changes", {}).get("previous") == old.name:
            changes.reasons = recorded.get("change_reasons") or {}
    return changes


def render_changelog(changes: Changes) -> str:
    return render("changelog.md.j2", c=changes)
