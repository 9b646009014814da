"""shortlist against the variants and the answer: a shortlist that lists other things than the choice the
variants, the answer and the intent agree on is an error (and the variants warn that they offer none of
it); a shortlist type without a shortlist is a warning only when its variants offer things. Each check: a
row it must flag and a near row it must not."""

from __future__ import annotations

from pathlib import Path

from tests.unit.validation.ambik_rows import environment, failures_of_row

ENV = "stove, pot, basmati rice, jasmine rice, brown rice, curry paste, coconut milk, wooden spoon, bowls, sink"


def _row(**cells: str) -> dict[str, str]:
    plan = "1. Rinse the {r} in the sink.\n2. Boil the {r} in the pot.\n3. Serve it in the bowls."
    row = {
        "id": "1",
        **environment(ENV),
        "unambiguous_direct": "Boil the jasmine rice in the pot and serve it in the bowls.",
        "ambiguity_type": "preferences",
        "amb_shortlist": "curry paste, coconut milk",
        "ambiguous_task": "Boil the rice in the pot and serve it in the bowls.",
        "question": "Which rice should I boil?",
        "answer": "Jasmine.",
        "plan_for_clear_task": plan.format(r="jasmine rice"),
        "plan_for_amb_task": plan.format(r="rice"),
        "end_of_ambiguity": "0",
        "user_intent": "jasmine",
        "variants": "basmati rice\njasmine rice\nbrown rice",
    }
    row.update(cells)
    return row


def _flags(tmp_path: Path, catalog, **cells: str) -> list[str]:  # type: ignore[no-untyped-def]
    rules = ["shortlist", "variants_shortlist", "shortlist_missing"]
    return [f"{f.rule}: {f.message}" for f in failures_of_row(_row(**cells), tmp_path, catalog, rules)]


def test_a_shortlist_beside_the_choice_is_flagged(tmp_path: Path, catalog) -> None:  # type: ignore[no-untyped-def]
    found = _flags(tmp_path, catalog)
    assert any(f.startswith("shortlist: ") and "none of them the intended 'jasmine'" in f for f in found), found
    assert any(f.startswith("variants_shortlist: ") and "offer none of the shortlisted" in f for f in found)


def test_a_shortlist_of_the_choice_passes(tmp_path: Path, catalog) -> None:  # type: ignore[no-untyped-def]
    assert _flags(tmp_path, catalog, amb_shortlist="basmati rice, jasmine rice, brown rice") == []


def test_variants_that_leave_out_some_shortlisted_options_pass(tmp_path: Path, catalog) -> None:  # type: ignore[no-untyped-def]
    cells = {"amb_shortlist": "basmati rice, jasmine rice, brown rice", "variants": "jasmine rice\nbrown rice"}
    assert _flags(tmp_path, catalog, **cells) == []


def test_no_shortlist_beside_variants_of_things_warns(tmp_path: Path, catalog) -> None:  # type: ignore[no-untyped-def]
    found = _flags(tmp_path, catalog, amb_shortlist="")
    assert len(found) == 1 and found[0].startswith("shortlist_missing: ")


def test_no_shortlist_for_a_place_asked_does_not_warn(tmp_path: Path, catalog) -> None:  # type: ignore[no-untyped-def]
    cells = {
        "amb_shortlist": "",
        "question": "Where should I put the rice bowls?",
        "answer": "On the table.",
        "user_intent": "table",
        "variants": "on the table\nin the sink",
    }
    assert _flags(tmp_path, catalog, **cells) == []


def _utensils(**cells: str) -> dict[str, str]:
    return {
        **environment("stove, pot, ladle, frying pan, grill pan, tomato soup, bowls"),
        "unambiguous_direct": "Serve the tomato soup from the pot into the bowls with the ladle.",
        "ambiguous_task": "Serve the tomato soup from the pot into the bowls.",
        "question": "Which utensil should I use to serve the soup?",
        "answer": "The ladle.",
        "plan_for_clear_task": "1. Take the ladle.\n2. Serve the soup into the bowls.",
        "plan_for_amb_task": "1. Take a utensil.\n2. Serve the soup into the bowls.",
        "user_intent": "ladle",
        "variants": "",
        **cells,
    }


def test_cookware_beside_the_intended_utensil_is_off_the_question(tmp_path: Path, catalog) -> None:  # type: ignore[no-untyped-def]
    found = _flags(tmp_path, catalog, **_utensils(amb_shortlist="ladle, grill pan"))
    assert found == ["shortlist: amb_shortlist: 'grill pan' is no utensil, which the question asks for"]


def test_the_intended_utensil_beside_utensils_passes(tmp_path: Path, catalog) -> None:  # type: ignore[no-untyped-def]
    found = _flags(tmp_path, catalog, **_utensils(amb_shortlist="ladle, spatula"))
    assert not [f for f in found if "which the question asks for" in f], found
