"""answer_leak under a question that is no choice among things: the ambiguous task names the one intended thing in
the words it rewrote; not when both tasks name it in the words they share."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.unit.validation.ambik_rows import leak_messages

ENV = "frying pan, wooden spatula, steel wool, soft sponge, dish soap, sink, dish rack, kitchen towel"
PLAN = "1. Run water into the sink.\n2. Wash the frying pan.\n3. Dry it."


@pytest.fixture()
def leak(tmp_path: Path, catalog):  # type: ignore[no-untyped-def]
    return leak_messages(ENV, PLAN, tmp_path, catalog)


def test_the_rewritten_task_names_the_intended_thing(leak) -> None:  # type: ignore[no-untyped-def]
    found = leak(
        unambiguous_direct="Scrub the non-stick frying pan with the soft sponge and dish soap, then dry it with the "
        "kitchen towel.",
        ambiguous_task="Pick up the soft sponge and get the non-stick frying pan clean with dish soap, then dry it "
        "with the kitchen towel.",
        question="How should I scrub the non-stick frying pan?",
        answer="Gently, with the soft sponge; steel wool scratches the coating.",
        user_intent="soft sponge",
    )
    assert found == ["ambiguous_task: already names the intended 'soft sponge'"]


def test_a_thing_both_tasks_handle_alike_is_no_leak(leak) -> None:  # type: ignore[no-untyped-def]
    found = leak(
        unambiguous_direct="Wash the frying pan with the soft sponge and dish soap and leave it on the dish rack "
        "for ten minutes.",
        ambiguous_task="Wash the frying pan with the soft sponge and dish soap and leave it on the dish rack.",
        question="How long should the pan stay on the rack?",
        answer="About ten minutes, with the soft sponge put away.",
        user_intent="soft sponge",
    )
    assert found == []
