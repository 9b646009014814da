"""shortlist options of another kind than the question asks for, when the question names no catalog kind:
a dish among the foods chosen from, a manner ("with ice") among the things. Each check: a row it must flag
and a near row it must not."""

from __future__ import annotations

from pathlib import Path

from tests.unit.validation.ambik_rows import environment, failures_of_row

ENV = (
    "scones, clotted cream, apricot jam, lemon curd, butter, small bowls, tea plates, teapot, tall glass, short tumbler"
)


def _row(**cells: str) -> dict[str, str]:
    row = {
        "id": "1",
        **environment(ENV),
        "unambiguous_direct": "Serve the scones on the tea plates with lemon curd.",
        "ambiguity_type": "preferences",
        "ambiguous_task": "Serve the scones on the tea plates with a spread.",
        "question": "Which spread should I serve with the scones?",
        "answer": "Lemon curd.",
        "amb_shortlist": "apricot jam, lemon curd, small bowls",
        "user_intent": "lemon curd",
        "variants": "Apricot jam\nLemon curd",
        "plan_for_clear_task": "1. Put the scones on the tea plates.\n2. Add the lemon curd.",
        "plan_for_amb_task": "1. Put the scones on the tea plates.\n2. Add a spread.",
        "end_of_ambiguity": "1",
    }
    row.update(cells)
    return row


def _errors(tmp_path: Path, catalog, **cells: str) -> list[str]:  # type: ignore[no-untyped-def]
    return [f.message for f in failures_of_row(_row(**cells), tmp_path, catalog, ["shortlist"])]


def test_a_dish_among_the_foods_chosen_from_is_flagged(tmp_path: Path, catalog) -> None:  # type: ignore[no-untyped-def]
    found = _errors(tmp_path, catalog)
    assert len(found) == 1 and "'small bowls' is no food" in found[0]


def test_foods_only_pass(tmp_path: Path, catalog) -> None:  # type: ignore[no-untyped-def]
    assert _errors(tmp_path, catalog, amb_shortlist="apricot jam, lemon curd, butter") == []


def test_a_dish_is_fine_when_the_choice_is_among_dishes(tmp_path: Path, catalog) -> None:  # type: ignore[no-untyped-def]
    cells = {"question": "Which dish should I serve the jam in?", "user_intent": "small bowls", "answer": "Bowls."}
    assert _errors(tmp_path, catalog, amb_shortlist="small bowls, tea plates", **cells) == []


def _glass(**cells: str) -> dict[str, str]:
    return {
        "unambiguous_direct": "Pour the milk into the short tumbler.",
        "ambiguous_task": "Pour the milk into a glass.",
        "question": "Which glass should I pour the milk into?",
        "answer": "The short tumbler.",
        "user_intent": "short tumbler",
        "variants": "Tall glass\nShort tumbler",
        **cells,
    }


def test_a_manner_among_the_things_is_flagged(tmp_path: Path, catalog) -> None:  # type: ignore[no-untyped-def]
    found = _errors(tmp_path, catalog, **_glass(amb_shortlist="tall glass, short tumbler, with ice"))
    assert found == ["amb_shortlist: 'with ice' is a manner, not a thing the question asks for"]


def test_manners_answering_a_yes_or_no_question_pass(tmp_path: Path, catalog) -> None:  # type: ignore[no-untyped-def]
    cells = _glass(
        question="Would you like ice in the milk?",
        amb_shortlist="with ice, without ice",
        answer="With ice, please.",
        user_intent="ice",
        variants="With ice\nWithout ice",
    )
    assert _errors(tmp_path, catalog, **cells) == []
