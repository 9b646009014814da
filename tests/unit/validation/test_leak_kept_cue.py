"""answer_leak: the ambiguous task rewrites the open point and keeps another intended cue right beside it;
not a phrasal concept only part of which is kept, nor a kitchen thing the task handles."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.unit.validation.ambik_rows import leak_messages

ENV = "green tea, kettle, teapot, cups, honey, lemon, tea glasses, sink"
PLAN = "1. Fill the kettle.\n2. Do the task.\n3. Serve it."


@pytest.fixture()
def leak(tmp_path: Path, catalog):  # type: ignore[no-untyped-def]
    return leak_messages(ENV, PLAN, tmp_path, catalog)


KETTLE = dict(
    unambiguous_direct="Heat the kettle until the hissing fades to a soft murmur, then pour it over the green tea.",
    question="How do I know the water is ready for green tea?",
    answer="When the hissing fades to a soft murmur.",
    user_intent="soft murmur, fades",
)


def test_a_cue_kept_beside_the_rewritten_open_point_is_a_leak(leak) -> None:  # type: ignore[no-untyped-def]
    found = leak(
        ambiguous_task="Heat the kettle until the hissing fades away, then pour it over the green tea.", **KETTLE
    )
    assert len(found) == 1 and "keeps the intended 'fades' beside it" in found[0]


def test_a_rewrite_keeping_no_cue_is_not_a_leak(leak) -> None:  # type: ignore[no-untyped-def]
    found = leak(ambiguous_task="Heat the kettle until it is ready, then pour it over the green tea.", **KETTLE)
    assert found == []


def test_part_of_a_phrasal_concept_is_not_kept(leak) -> None:  # type: ignore[no-untyped-def]
    cells = dict(
        unambiguous_direct="Peel the lemon, cut out the seeds and cut the rest into wedges for the tea.",
        ambiguous_task="Peel the lemon and cut it into wedges for the tea.",
        question="Should the lemon seeds go into the tea too?",
        answer="No, cut out the seeds and throw them away.",
        user_intent="seeds, remove|cut out",
    )
    assert leak(**cells) == []
