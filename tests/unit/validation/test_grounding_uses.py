"""grounding on what a step uses: an alternative the kitchen has, the bowl the fruit is kept in, and a kitchen
word used as a verb are no missing objects; the same things without the alternative, the store or the verb
reading are."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.unit.validation.ambik_rows import environment, failures_of_row

ENV = "paring knife, cutting board, toaster, napkin, whisk, bananas, apples, hummus, crackers, white bread"
PLAN = ["Take the bread.", "Toast the bread in the toaster."]


def _row(step: str, env: str = ENV) -> dict[str, str]:
    return {
        "id": "1",
        **environment(env),
        "unambiguous_direct": "Toast the white bread in the toaster.",
        "ambiguity_type": "preferences",
        "amb_shortlist": "",
        "ambiguous_task": "Toast the bread in the toaster.",
        "question": "Which bread should I toast?",
        "answer": "The white bread.",
        "plan_for_clear_task": "\n".join([*PLAN, step]),
        "plan_for_amb_task": "\n".join([*PLAN, step]),
        "end_of_ambiguity": "0",
        "user_intent": "white",
        "variants": "",
    }


@pytest.fixture()
def grounding(tmp_path: Path, catalog):  # type: ignore[no-untyped-def]
    def run(step: str, env: str = ENV) -> list[str]:
        return [
            f"{f.severity} {f.message}"
            for f in failures_of_row(_row(step, env), tmp_path, catalog, ["grounding", "grounding_noun"])
        ]

    return run


@pytest.mark.parametrize(
    "step",
    [
        "Serve the toast on a plate or napkin.",  # the napkin will do
        "Mash the banana with a fork or whisk.",
        "Serve the toast on a plate or on a napkin.",
    ],
)
def test_an_alternative_the_kitchen_has_is_enough(grounding, step: str) -> None:  # type: ignore[no-untyped-def]
    assert grounding(step) == []


def test_alternatives_the_kitchen_lacks_are_missing(grounding) -> None:  # type: ignore[no-untyped-def]
    flags = grounding("Mash the banana with a fork or spoon.")
    assert [f.split(":")[0] for f in flags] == ["error plan_for_clear_task[2]"] * 2
    assert "'fork'" in flags[0] and "'spoon'" in flags[1]


def test_a_thing_without_an_alternative_is_still_missing(grounding) -> None:  # type: ignore[no-untyped-def]
    assert grounding("Mash the banana in a bowl.") == [
        "error plan_for_clear_task[2]: uses 'bowl', which the environment lacks (no bowl of any kind)"
    ]


@pytest.mark.parametrize("step", ["Take a banana from the fruit bowl.", "Take the hummus from its container."])
def test_the_container_food_is_taken_from_is_where_it_lies(grounding, step: str) -> None:  # type: ignore[no-untyped-def]
    assert grounding(step) == []


def test_a_container_food_is_put_in_is_a_thing_the_task_uses(grounding) -> None:  # type: ignore[no-untyped-def]
    flags = grounding("Put the hummus in the container.")
    assert len(flags) == 1 and flags[0].startswith("error") and "'the container'" in flags[0]


def test_a_bowl_the_fruit_goes_into_is_missing(grounding) -> None:  # type: ignore[no-untyped-def]
    flags = grounding("Put the banana in a fruit bowl.")
    assert len(flags) == 1 and flags[0].startswith("error") and "'bowl'" in flags[0]


@pytest.mark.parametrize(
    "step", ["Spoon 2 tablespoons of hummus onto the toast.", "3. Spoon out the hummus.", "Plate up the toast."]
)
def test_a_step_starting_with_a_kitchen_word_as_a_verb(grounding, step: str) -> None:  # type: ignore[no-untyped-def]
    assert grounding(step) == []


def test_the_same_word_as_a_thing_is_missing(grounding) -> None:  # type: ignore[no-untyped-def]
    flags = grounding("Add 2 tablespoons of hummus with a spoon.")
    assert len(flags) == 1 and flags[0].startswith("error") and "'spoon'" in flags[0]


def test_a_pan_is_the_skillet_the_kitchen_lists(grounding) -> None:  # type: ignore[no-untyped-def]
    assert grounding("Fry the bread in a pan.", env=ENV + ", skillet") == []
    flags = grounding("Fry the bread in a pan.")
    assert len(flags) == 1 and flags[0].startswith("error") and "'pan'" in flags[0]


def test_a_kitchen_word_before_a_pronoun_is_a_verb(grounding) -> None:  # type: ignore[no-untyped-def]
    assert grounding("Once the toast is ready, plate it.") == []
    flags = grounding("Put the toast back on the plate it came on.")
    assert len(flags) == 1 and flags[0].startswith("error") and "'the plate'" in flags[0]
