"""Stable pseudonyms for annotators: ``annotator-1``, ``annotator-2``... in everything ambiforge writes
outside the mapping itself.

The mapping (Label Studio user id -> pseudonym, with the e-mail and user name a maintainer needs to reach
the person) is kept in ``annotation/<run>/annotators.json`` and never leaves that folder. A pseudonym,
once given, is kept on every later pull; new annotators get the next numbers in order of user id.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

from ambiforge.atomic import write_json_atomic
from ambiforge.errors import InputError

MAPPING_FILE = "annotators.json"
PREFIX = "annotator-"


def load(folder: Path) -> dict[int, dict[str, Any]]:
    """user id -> {"pseudonym", "email", "username"}."""
    path = folder / MAPPING_FILE
    if not path.exists():
        return {}
    try:
        entries = json.loads(path.read_text(encoding="utf-8"))["annotators"]
        return {int(e["user_id"]): e for e in entries}
    except (json.JSONDecodeError, KeyError, TypeError, ValueError):
        raise InputError(str(path), "", "not an annotator mapping (expected {'annotators': [...]})") from None


def assign(known: Mapping[int, dict[str, Any]], user_ids: Iterable[int], users: Mapping[int, Any]) -> dict[int, dict]:
    """``known`` extended with pseudonyms for the new user ids (contact details refreshed from ``users``)."""
    mapping = {uid: dict(entry) for uid, entry in known.items()}
    taken = [int(e["pseudonym"].removeprefix(PREFIX)) for e in mapping.values()]
    next_n = max(taken, default=0) + 1
    for uid in sorted(set(user_ids) - set(mapping)):
        mapping[uid] = {"user_id": uid, "pseudonym": f"{PREFIX}{next_n}"}
        next_n += 1
    for uid, entry in mapping.items():
        user = users.get(uid)
        if user is not None:
            entry["email"] = getattr(user, "email", None)
            entry["username"] = getattr(user, "username", None)
    return mapping


def save(folder: Path, mapping: Mapping[int, dict[str, Any]]) -> Path:
    return write_json_atomic(
        folder / MAPPING_FILE,
        {
            "note": "private: who is behind each pseudonym; never published",
            "annotators": [mapping[uid] for uid in sorted(mapping)],
        },
    )
