"""variants: when the intent wants two foods together and the variants offer foods one by one, one intended
food offered alone while the other is in none of them leaves the intended set among no options (an error);
a tool beside its helper ("chef's knife, cutting board") stays a warning, and a variant holding both is fine."""

from __future__ import annotations

from pathlib import Path

from tests.unit.validation.ambik_rows import environment, failures_of_row

ENV = "plums, peaches, oranges, bananas, fruit bowl, chef's knife, bread knife, cutting board"


def _row(**cells: str) -> dict[str, str]:
    row = {
        "id": "1",
        **environment(ENV),
        "unambiguous_direct": "Rinse the plums and peaches and put them in the fruit bowl.",
        "ambiguity_type": "preferences",
        "amb_shortlist": "plums, peaches, oranges, bananas",
        "ambiguous_task": "Rinse some stone fruit and put it in the fruit bowl.",
        "question": "Which fruit should go in the bowl?",
        "answer": "Plums and peaches.",
        "user_intent": "plums, peaches",
        "variants": "plums\noranges\nbananas",
        "plan_for_clear_task": "1. Rinse the plums and peaches.\n2. Put them in the fruit bowl.",
        "plan_for_amb_task": "1. Rinse the fruit.\n2. Put it in the fruit bowl.",
        "end_of_ambiguity": "0",
    }
    row.update(cells)
    return row


def _flags(tmp_path: Path, catalog, **cells: str) -> list[str]:  # type: ignore[no-untyped-def]
    found = failures_of_row(_row(**cells), tmp_path, catalog, ["variants", "variants_suspect"])
    return [f"{f.rule}: {f.message}" for f in found]


def test_an_intended_food_lost_beside_one_offered_is_an_error(tmp_path: Path, catalog) -> None:  # type: ignore[no-untyped-def]
    found = _flags(tmp_path, catalog)
    assert len(found) == 1 and found[0].startswith("variants: variants: the intended 'peaches' is in none of them")


def test_a_variant_holding_both_foods_is_fine(tmp_path: Path, catalog) -> None:  # type: ignore[no-untyped-def]
    assert _flags(tmp_path, catalog, variants="plums and peaches\noranges and bananas") == []


def test_a_tool_offered_without_its_helper_stays_a_warning(tmp_path: Path, catalog) -> None:  # type: ignore[no-untyped-def]
    found = _flags(
        tmp_path,
        catalog,
        unambiguous_direct="Halve the plums with the chef's knife on the cutting board.",
        ambiguous_task="Halve the plums.",
        question="What should I cut the plums with?",
        answer="The chef's knife, on the cutting board.",
        user_intent="chef's knife, cutting board",
        amb_shortlist="chef's knife, bread knife",
        variants="chef's knife\nbread knife",
    )
    assert len(found) == 1 and found[0].startswith("variants_suspect: ")
