"""corruption of texts joined in a hurry: stray punctuation between two pieces, a step run on after a comma,
a text cut after a word that needs more, an article before a pronoun. Each check: a row it must flag and a
near row it must not."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.unit.validation.ambik_rows import environment, failures_of_row

ENV = "stove, frying pan, eggs, butter, spatula, plates"


def _row(**cells: str) -> dict[str, str]:
    plan = "1. Melt the butter in the frying pan.\n2. Fry the eggs, turning them with the spatula.\n3. Serve on plates."
    row = {
        "id": "1",
        **environment(ENV),
        "unambiguous_direct": "Fry two eggs in butter in the frying pan and serve them on plates.",
        "ambiguity_type": "preferences",
        "amb_shortlist": "eggs, butter",
        "ambiguous_task": "Fry two eggs in butter in the frying pan and serve them.",
        "question": "Where should I serve the eggs?",
        "answer": "On plates.",
        "plan_for_clear_task": plan,
        "plan_for_amb_task": plan,
        "end_of_ambiguity": "2",
        "user_intent": "plates",
        "variants": "",
    }
    row.update(cells)
    return row


def _corruption(tmp_path: Path, catalog, **cells: str) -> list[str]:  # type: ignore[no-untyped-def]
    return [f.message for f in failures_of_row(_row(**cells), tmp_path, catalog, ["corruption"])]


@pytest.mark.parametrize(
    ("cells", "said"),
    [
        ({"plan_for_clear_task": "1. Melt the butter., . Then fry the eggs.\n2. Serve."}, "stray punctuation"),
        ({"unambiguous_direct": "Fry two eggs in butter in the frying pan,."}, "stray punctuation"),
        ({"plan_for_clear_task": "1. Melt the butter,  Put the eggs into the pan.\n2. Serve."}, "several steps"),
        ({"ambiguous_task": "Fry two eggs in butter in the frying pan using."}, "ends cut off"),
        ({"ambiguous_task": "Fry two eggs in butter and serve the."}, "ends cut off"),
        ({"unambiguous_direct": "Fry two eggs and serve the them on plates."}, "an article before a pronoun"),
    ],
)
def test_joined_text_is_corruption(tmp_path: Path, catalog, cells: dict[str, str], said: str) -> None:  # type: ignore[no-untyped-def]
    found = _corruption(tmp_path, catalog, **cells)
    assert len(found) == 1 and said in found[0], found


@pytest.mark.parametrize(
    "cells",
    [
        {"plan_for_clear_task": "1. Get the tools (spatula, plates, etc.), then melt the butter.\n2. Serve."},
        {"plan_for_clear_task": "1. Melt the butter, Greek style, in the pan.\n2. Serve."},
        {"plan_for_clear_task": "1. Melt the butter, place the eggs in the pan.\n2. Serve."},
        {"ambiguous_task": "Fry two eggs in butter, the pan ready before using."},
        {"plan_for_clear_task": "1. Plug the stove in.\n2. Serve them."},
    ],
)
def test_ordinary_punctuation_and_endings_pass(tmp_path: Path, catalog, cells: dict[str, str]) -> None:  # type: ignore[no-untyped-def]
    assert _corruption(tmp_path, catalog, **cells) == []
