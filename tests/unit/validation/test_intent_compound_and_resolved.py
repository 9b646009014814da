"""intent: a negated concept said only inside a longer name ("-kettle" beside the kettle grill the step uses) is
not the ruled-out thing; and a clear task that itself adds an intent concept resolves the open point, so a
further concept it leaves unsaid is a suspicion (intent_suspect), not an error. Each: a row it must flag and a
near row it must not."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.unit.validation.ambik_rows import environment, failures_of_row


def _row(**cells: str) -> dict[str, str]:
    row = {
        "id": "1",
        **environment(cells.pop("env", "whisk, hand mixer, mixer bowl, cream, sugar, vanilla, spatula")),
        "ambiguity_type": "safety",
        "unambiguous_direct": "Whip the cream with the sugar using the hand mixer in the mixer bowl.",
        "ambiguous_task": "Whip the cream with the sugar in the mixer bowl.",
        "question": "Should I use the stand mixer for the cream?",
        "answer": "No, use the hand mixer; there is no stand mixer here.",
        "user_intent": "hand mixer, -stand",
        "plan_for_clear_task": "Put the cream and sugar in the mixer bowl.\nWhip them with the hand mixer.",
        "plan_for_amb_task": "Put the cream and sugar in the mixer bowl.\nWhip them.",
        "end_of_ambiguity": "1",
    }
    row.update(cells)
    return row


@pytest.fixture()
def flags(tmp_path: Path, catalog):  # type: ignore[no-untyped-def]
    def run(**cells: str) -> list[tuple[str, str]]:
        found = failures_of_row(_row(**cells), tmp_path, catalog, ["intent", "intent_suspect"])
        return [(f.rule, f.message) for f in found]

    return run


def test_a_negated_word_inside_the_intended_name_is_not_flagged(flags) -> None:  # type: ignore[no-untyped-def]
    # "-mixer" rules out the other mixer; the step's "hand mixer" and "mixer bowl" are other names
    assert flags(user_intent="hand mixer, -mixer") == []


def test_a_negated_word_said_alone_is_flagged(flags) -> None:  # type: ignore[no-untyped-def]
    found = flags(
        user_intent="hand mixer, -mixer",
        plan_for_clear_task="Put the cream and sugar in the mixer bowl.\nWhip them with the hand mixer or the mixer.",
    )
    assert [r for r, _ in found] == ["intent"] and "'-mixer' must not appear" in found[0][1]


def test_an_unsaid_concept_beside_one_the_clear_task_adds_is_a_suspicion(flags) -> None:  # type: ignore[no-untyped-def]
    # the clear task adds "hand mixer" (said) and a baking tray beside it; "soft peaks" is more of the answer
    found = flags(
        unambiguous_direct="Whip the cream and sugar using the hand mixer in the mixer bowl and grease a baking tray.",
        user_intent="hand mixer, soft peaks",
    )
    assert [r for r, _ in found] == ["intent_suspect"]


def test_an_unsaid_concept_when_the_clear_task_adds_other_things_is_an_error(flags) -> None:  # type: ignore[no-untyped-def]
    found = flags(
        unambiguous_direct="Whip the cream, sugar and the vanilla in the mixer bowl, then grease a baking tray.",
        user_intent="hand mixer, soft peaks",
    )
    assert {r for r, _ in found} == {"intent"} and "changes more than the open point" in found[0][1]
