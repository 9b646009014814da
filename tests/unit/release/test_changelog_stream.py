"""The streamed changelog (digests, then a field comparison of the suspects) lists what comparing the
whole records lists, including values equal in Python but written differently (1 and 1.0, key order)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import orjson

from ambiforge.releases.changelog import compare, compare_streamed, digest


def _write(path: Path, records: list[dict[str, Any]]) -> Path:
    path.write_bytes(b"".join(orjson.dumps(r) + b"\n" for r in records))
    return path


def test_streamed_compare_equals_whole_compare(tmp_path: Path) -> None:
    old = [
        {"id": "a", "question": "Which?", "end_of_ambiguity": 1, "provenance": {"run_id": "r1"}},
        {"id": "b", "question": "Which one?", "review": {"status": "majority", "verdict": "accept"}},
        {"id": "c", "question": "Gone?"},
        {"id": "d", "question": "Same?", "end_of_ambiguity": 2},
    ]
    new = [
        {"id": "a", "question": "Which?", "end_of_ambiguity": 1.0, "provenance": {"run_id": "r2"}},  # not a change
        {"id": "b", "review": {"verdict": "accept", "status": "unanimous"}, "question": "Which one?"},  # review
        {"id": "d", "question": "Same, really?", "end_of_ambiguity": 2},  # question
        {"id": "e", "question": "New?"},
    ]
    path = _write(tmp_path / "data.jsonl", old)
    by_id = {r["id"]: r for r in new}
    streamed = compare_streamed(
        [path], {r["id"]: digest(r) for r in new}, lambda ids: [by_id[i] for i in ids], "1.0.0", "1.1.0"
    )
    whole = compare(old, new, "1.0.0", "1.1.0")
    assert streamed == whole
    assert whole.changed == {"b": ["review"], "d": ["question"]}
    assert whole.added == ["e"] and whole.removed == ["c"]


def test_no_previous_release_adds_everything() -> None:
    new = {"x": digest({"id": "x"}), "y": digest({"id": "y"})}
    changes = compare_streamed([], new, lambda ids: [], None, "1.0.0")
    assert changes.added == ["x", "y"] and not changes.removed and not changes.changed
