"""end_of_ambiguity on a copied plan whose earlier step takes part in the choice: the message says how it takes
part, since a step that takes out both options has not made the choice (it needs it) and only one that names
the intended option alone has made it."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.unit.validation.ambik_rows import environment, failures_of_row

ENV = "lettuce, tomato, cucumber, carrot, radish, cheese, goat cheese, eggs, heavy cream, knife, cutting board"
SALAD = [
    "Go to the fridge and take out the lettuce, tomato, cucumber, carrot and radish.",
    "Rinse all vegetables under water in the sink.",
    "Slice the tomato into thin slices.",
    "Peel and grate carrot into thin strips if used.",
]


def _row(**cells: str) -> dict[str, str]:
    plan = cells.pop("plan", "\n".join(SALAD))
    row = {
        "id": "1",
        **environment(ENV),
        "unambiguous_direct": "Prepare a salad using lettuce, tomato, cucumber and carrot.",
        "ambiguity_type": "preferences",
        "amb_shortlist": "",
        "ambiguous_task": "Prepare a salad using lettuce, tomato, cucumber and carrot or radish.",
        "question": "Should I use carrot or radish for the salad?",
        "answer": "Use carrot for the salad.",
        "plan_for_clear_task": plan,
        "plan_for_amb_task": plan,  # copied: the two plans are the same
        "end_of_ambiguity": "2",
        "user_intent": "carrot, -radish",
        "variants": "",
    }
    row.update(cells)
    return row


@pytest.fixture()
def flags(tmp_path: Path, catalog):  # type: ignore[no-untyped-def]
    def run(**cells: str) -> list[str]:
        return [f.message for f in failures_of_row(_row(**cells), tmp_path, catalog, ["end_of_ambiguity"])]

    return run


def test_a_step_taking_out_both_options_needs_the_choice_and_has_not_made_it(flags) -> None:  # type: ignore[no-untyped-def]
    found = flags()
    assert len(found) == 1
    assert found[0].startswith("plan_for_clear_task[0]: names the options ('carrot', 'radish') side by side")
    assert "already" not in found[0] and "made" not in found[0]


def test_a_step_naming_only_the_intended_option_has_made_the_choice(flags) -> None:  # type: ignore[no-untyped-def]
    plan = ["Go to the fridge and take out the lettuce, tomato, cucumber and carrot.", *SALAD[1:]]
    found = flags(plan="\n".join(plan))
    assert len(found) == 1 and "already names the intended 'carrot', so the choice is made there" in found[0]


def test_a_step_leaving_the_choice_open_or_naming_what_is_chosen_says_so(flags) -> None:  # type: ignore[no-untyped-def]
    cheese = dict(
        unambiguous_direct="Make a baked goat cheese dish with eggs and heavy cream.",
        ambiguous_task="Make a baked cheese dish with eggs and heavy cream.",
        question="Which type of cheese should I use for the baked cheese dish?",
        answer="Use goat cheese.",
        user_intent="goat cheese",
        end_of_ambiguity="1",
    )
    taken = ["Go to the fridge and take out the cheese, eggs, and heavy cream.", "Preheat the oven to 350 degrees."]
    found = flags(plan="\n".join([*taken, "Crack two eggs into a bowl."]), **cheese)
    assert len(found) == 1 and "names what the choice is about ('cheese'), so it is needed there" in found[0]
    open_step = ["Go to the fridge and take out some food, eggs, and heavy cream.", taken[1]]
    found = flags(plan="\n".join([*open_step, "Crack two eggs into a bowl."]), **cheese)
    assert len(found) == 1 and "leaves the choice open ('some food')" in found[0]


def test_an_index_on_the_step_that_takes_part_is_not_flagged(flags) -> None:  # type: ignore[no-untyped-def]
    assert flags(end_of_ambiguity="0") == []
