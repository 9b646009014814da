"""variants errors left to the rule whose defect it is: an absent offer the shortlist lists too is the
shortlist's, and a swap needs a kin of the left-out option in its place. Each: a row flagged, a near row not."""

from __future__ import annotations

from pathlib import Path

from tests.unit.validation.ambik_rows import environment, failures_of_row

ENV = "leg of lamb, mint jelly, red wine, dinner plates, ladle, frying pan, grill pan, saucepan, blue cloth napkins"


def _row(**cells: str) -> dict[str, str]:
    row = {
        "id": "1",
        **environment(ENV),
        "unambiguous_direct": "Serve the roast lamb on the dinner plates with mint jelly.",
        "ambiguity_type": "preferences",
        "ambiguous_task": "Serve the roast lamb on the dinner plates with a sauce.",
        "question": "What should I serve with the lamb?",
        "answer": "Mint jelly.",
        "amb_shortlist": "mint jelly, red wine",
        "user_intent": "mint jelly",
        "variants": "mint jelly\ngravy",
        "plan_for_clear_task": "1. Put the lamb on the dinner plates.\n2. Add the mint jelly.",
        "plan_for_amb_task": "1. Put the lamb on the dinner plates.\n2. Add a sauce.",
        "end_of_ambiguity": "1",
    }
    row.update(cells)
    return row


def _errors(tmp_path: Path, catalog, **cells: str) -> list[str]:  # type: ignore[no-untyped-def]
    return [f.message for f in failures_of_row(_row(**cells), tmp_path, catalog, ["variants"])]


def test_an_absent_offer_is_flagged(tmp_path: Path, catalog) -> None:  # type: ignore[no-untyped-def]
    found = _errors(tmp_path, catalog)
    assert len(found) == 1 and "'gravy' is offered, and the environment has no such object" in found[0]


def test_an_absent_offer_the_shortlist_lists_too_is_left_to_the_shortlist(tmp_path: Path, catalog) -> None:  # type: ignore[no-untyped-def]
    assert _errors(tmp_path, catalog, amb_shortlist="mint jelly, gravy") == []


def _napkins(**cells: str) -> dict[str, str]:
    return {
        "unambiguous_direct": "Set the blue cloth napkins beside the dinner plates.",
        "ambiguous_task": "Set napkins beside the dinner plates.",
        "question": "Which napkins should I set out?",
        "answer": "The blue cloth napkins.",
        "user_intent": "blue cloth napkins",
        "amb_shortlist": "blue cloth napkins, paper towel",
        **cells,
    }


def test_a_kin_offered_instead_of_a_shortlisted_option_is_flagged(tmp_path: Path, catalog) -> None:  # type: ignore[no-untyped-def]
    found = _errors(tmp_path, catalog, **_napkins(variants="Paper towel\nRed cloth napkins"))
    assert len(found) == 1 and "'Red cloth napkins' is offered instead of the shortlisted" in found[0]


def test_an_unrelated_offer_is_no_swap(tmp_path: Path, catalog) -> None:  # type: ignore[no-untyped-def]
    cells = _napkins(
        question="Which utensil should I use?",
        answer="Ladle",
        user_intent="ladle",
        amb_shortlist="ladle, grill pan",
        variants="Ladle\nSpoon",
    )
    assert not any("instead of the shortlisted" in m for m in _errors(tmp_path, catalog, **cells))
