"""variants: an object offered instead of a shortlisted one is the variants' defect only when the kitchen lacks
it (a kitchen object the shortlist leaves out makes the shortlist the short list), and a variant that only
repeats the ambiguous task's open words is no option."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.unit.validation.ambik_rows import environment, failures_of_row

ENV = "glass plate, ceramic plate, plastic plate, glass, mug, cup, orange juice, toast"


def _row(**cells: str) -> dict[str, str]:
    row = {
        "id": "1",
        **environment(ENV),
        "ambiguity_type": "preferences",
        "plan_for_clear_task": "Take out the things.\nDo the task.",
        "plan_for_amb_task": "Take out the things.\nDo the task.",
        "end_of_ambiguity": "0",
    }
    row.update(cells)
    return row


@pytest.fixture()
def flags(tmp_path: Path, catalog):  # type: ignore[no-untyped-def]
    def run(**cells: str) -> list[str]:
        return [f.message for f in failures_of_row(_row(**cells), tmp_path, catalog, ["variants"])]

    return run


PLATE = dict(
    unambiguous_direct="Serve the toast on the ceramic plate.",
    ambiguous_task="Serve the toast on a plate.",
    question="Which plate should I serve the toast on?",
    answer="The ceramic plate.",
    user_intent="ceramic plate",
    amb_shortlist="ceramic plate, plastic plate",
)


def test_a_kitchen_object_the_shortlist_leaves_out_is_no_swap(flags) -> None:  # type: ignore[no-untyped-def]
    assert flags(variants="Glass plate\nCeramic plate", **PLATE) == []


def test_an_object_the_kitchen_lacks_offered_instead_is_flagged(flags) -> None:  # type: ignore[no-untyped-def]
    found = flags(variants="Wooden plate\nCeramic plate", **PLATE)
    assert len(found) == 1 and "'Wooden plate'" in found[0]


JUICE = dict(
    unambiguous_direct="Pour the orange juice into a glass.",
    ambiguous_task="Pour the orange juice into a container.",
    question="Where should I pour the orange juice?",
    answer="Into a glass.",
    user_intent="glass",
    amb_shortlist="glass, mug, cup",
)


def test_a_variant_repeating_the_open_words_is_no_option(flags) -> None:  # type: ignore[no-untyped-def]
    found = flags(variants="Pour the orange juice into a container\nPour it into a glass\nPour it into a mug", **JUICE)
    assert found[0].startswith(
        "variants: 'Pour the orange juice into a container' only repeats the ambiguous task's open words"
    )


def test_variants_that_each_offer_an_option_are_not_flagged(flags) -> None:  # type: ignore[no-untyped-def]
    assert flags(variants="Pour it into a glass\nPour it into a mug\nPour it into a cup", **JUICE) == []


def test_a_variant_naming_an_option_the_task_offers_is_no_repeat(flags) -> None:  # type: ignore[no-untyped-def]
    offered = dict(JUICE, ambiguous_task="Pour the orange juice into a cup or a mug.", amb_shortlist="")
    found = flags(variants="Pour the orange juice into a cup\nPour the orange juice into a glass", **offered)
    assert not any("only repeats" in f for f in found)


SHAPES = dict(
    environment(ENV + ", cookie dough, flower cookie cutter, round cookie cutter, paring knife"),
    unambiguous_direct="Cut the cookie dough into flowers with the flower cookie cutter.",
    ambiguous_task="Cut the cookie dough into a nice shape.",
    question="Which shape should I cut the cookies into?",
    answer="Flowers, with the flower cookie cutter.",
    user_intent="flower cookie cutter|flower",
    amb_shortlist="flower cookie cutter, round cookie cutter, paring knife",
)


def test_variants_naming_the_shapes_the_options_give_are_no_swap(flags) -> None:  # type: ignore[no-untyped-def]
    assert flags(variants="Flower\nRound\nDiamonds", **SHAPES) == []


def test_a_thing_the_kitchen_lacks_offered_for_a_shape_is_flagged(flags) -> None:  # type: ignore[no-untyped-def]
    found = flags(variants="Flower\nRound\nPizza cutter", **SHAPES)
    assert len(found) == 1 and "'Pizza cutter'" in found[0]
