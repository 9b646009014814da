"""shortlist looks up a thing named with its state ("shredded mozzarella") without the state, reads a kind the
question names in full ("Which nut butter ...?") against options of another kind, and asks no options of a
question about what a phrase means. Each: a row flagged, a near row not."""

from __future__ import annotations

from pathlib import Path

from tests.unit.validation.ambik_rows import environment, failures_of_row

ENV = "russet potatoes, baking sheet, oven, sour cream, chives, butter, paring knife, plates"


def _row(**cells: str) -> dict[str, str]:
    row = {
        "id": "1",
        **environment(ENV),
        "unambiguous_direct": "Bake the russet potatoes on the baking sheet and top each with sour cream.",
        "ambiguity_type": "preferences",
        "amb_shortlist": "sour cream, chives, shredded mozzarella",
        "ambiguous_task": "Bake the russet potatoes on the baking sheet and top each one.",
        "question": "Which topping should go on the potatoes?",
        "answer": "Sour cream.",
        "user_intent": "sour cream",
        "variants": "sour cream\nchives",
        "plan_for_clear_task": "1. Bake the potatoes on the baking sheet.\n2. Top each with sour cream.",
        "plan_for_amb_task": "1. Bake the potatoes on the baking sheet.\n2. Top each one.",
        "end_of_ambiguity": "1",
    }
    row.update(cells)
    return row


def _errors(tmp_path: Path, catalog, **cells: str) -> list[str]:  # type: ignore[no-untyped-def]
    return [f.message for f in failures_of_row(_row(**cells), tmp_path, catalog, ["shortlist"])]


def test_a_thing_in_a_state_the_kitchen_lacks_is_flagged(tmp_path: Path, catalog) -> None:  # type: ignore[no-untyped-def]
    assert _errors(tmp_path, catalog) == ["amb_shortlist: 'shredded mozzarella' is not in the environment"]


def test_a_thing_in_a_state_of_a_kitchen_thing_is_not_flagged(tmp_path: Path, catalog) -> None:  # type: ignore[no-untyped-def]
    cells = environment(ENV + ", fresh mozzarella")
    assert _errors(tmp_path, catalog, **cells) == []


def _spreads(question: str) -> dict[str, str]:
    return {
        **environment("sourdough bread, toaster, peanut butter, almond butter, orange marmalade, butter knife"),
        "unambiguous_direct": "Toast a slice of sourdough bread and spread it with almond butter.",
        "ambiguous_task": "Toast a slice of sourdough bread and spread it.",
        "question": question,
        "answer": "Almond butter.",
        "user_intent": "almond butter",
        "amb_shortlist": "peanut butter, almond butter, orange marmalade",
        "variants": "peanut butter\nalmond butter",
        "plan_for_clear_task": "1. Toast the bread.\n2. Spread it with almond butter.",
        "plan_for_amb_task": "1. Toast the bread.\n2. Spread it.",
    }


def test_another_kind_beside_a_kind_named_in_full_is_flagged(tmp_path: Path, catalog) -> None:  # type: ignore[no-untyped-def]
    found = _errors(tmp_path, catalog, **_spreads("Which nut butter should I spread on the toast?"))
    assert found == ["amb_shortlist: 'orange marmalade' is no nut butter, which the question asks for"]


def test_the_same_options_for_a_wider_question_are_not_flagged(tmp_path: Path, catalog) -> None:  # type: ignore[no-untyped-def]
    assert _errors(tmp_path, catalog, **_spreads("What should I spread on the toast?")) == []


def test_a_question_about_a_meaning_asks_for_no_options(tmp_path: Path, catalog) -> None:  # type: ignore[no-untyped-def]
    cells = {"amb_shortlist": "", "variants": "", "question": "What does 'baked through' mean for a potato?"}
    assert _errors(tmp_path, catalog, **cells) == []


def test_a_question_about_a_thing_with_no_options_is_flagged(tmp_path: Path, catalog) -> None:  # type: ignore[no-untyped-def]
    found = _errors(tmp_path, catalog, amb_shortlist="", variants="", question="Which topping do you want?")
    assert len(found) == 1 and "nothing lists the options" in found[0]
