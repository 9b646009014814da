"""minimal_pair reads rewordings a reader accepts as the open point said vaguely: steps the answer itself spells
out are the open point, not details dropped (many details dropped are a rewrite warning, not an error); "let"
adds nothing; a word that may be a verb ("store") is no thing put in place of one; an appliance every kitchen
has ("from under the sink") is no thing added. And a clear task that adds only a unit without its number, or
the kind the question asks to choose among, leaves the same choice open. The intent rule reads a ruled-out
word in a clause that rules it out ("without letting it boil") as ruled out. Each check: a row it must flag
and a near row it must not."""

from __future__ import annotations

from pathlib import Path

import pytest

from ambiforge.validation.rules.minimal_pair import _same_word
from tests.unit.validation.ambik_rows import environment, failures_of_row

ENV = (
    "pears, saucepan, soup pot, honey, cinnamon, milk, fridge, sink, glass jar, mugs, wooden spoon, "
    "rye bread, seeded bread, cleaning spray"
)


def _row(**cells: str) -> dict[str, str]:
    row = {
        "id": "1",
        **environment(cells.pop("env", ENV)),
        "ambiguity_type": "common_sense_knowledge",
        "unambiguous_direct": "Poach two pears: peel them, cut out the cores, simmer them in the soup pot with honey "
        "and cinnamon for 20 minutes, then chill them in the fridge before serving them in the mugs.",
        "ambiguous_task": "Poach two pears and serve them in the mugs.",
        "question": "How should I poach the pears?",
        "answer": "Peel them, cut out the cores, simmer them in the soup pot with honey and cinnamon for 20 minutes, "
        "then chill them in the fridge.",
        "user_intent": "20 minutes|twenty minutes, honey",
        "plan_for_clear_task": "Peel the pears.\nCut out the cores.\nSimmer them in the soup pot with honey and "
        "cinnamon for 20 minutes.\nChill them in the fridge.\nServe them in the mugs.",
        "plan_for_amb_task": "Peel the pears.\nCut out the cores.\nPoach them.\nServe them in the mugs.",
        "end_of_ambiguity": "2",
        "amb_shortlist": "",
        "variants": "",
    }
    row.update(cells)
    return row


@pytest.fixture()
def flags(tmp_path: Path, catalog):  # type: ignore[no-untyped-def]
    def run(**cells: str) -> list[str]:
        return [f.message for f in failures_of_row(_row(**cells), tmp_path, catalog, ["minimal_pair"])]

    return run


def test_steps_the_answer_spells_out_are_not_details_dropped(flags) -> None:  # type: ignore[no-untyped-def]
    assert flags() == []


def test_steps_neither_the_answer_nor_the_intent_says_are_a_suspicion(tmp_path: Path, catalog) -> None:  # type: ignore[no-untyped-def]
    # a suspicion (rewrite warning), not an error: a reader may take them as the answer said in other words
    found = failures_of_row(_row(answer="For 20 minutes, with honey."), tmp_path, catalog, ["minimal_pair", "rewrite"])
    assert [(f.rule, f.severity) for f in found] == [("rewrite", "warning")]
    assert "content words of the clear task beside the open point" in found[0].message


def test_steps_the_answer_spells_out_are_no_suspicion(tmp_path: Path, catalog) -> None:  # type: ignore[no-untyped-def]
    found = failures_of_row(_row(), tmp_path, catalog, ["rewrite"])
    assert not any("beside the open point" in f.message for f in found)


def test_one_word_in_two_forms_is_no_replacement() -> None:
    assert _same_word("pack", "packing") and _same_word("slice", "sliced")
    assert not _same_word("pack", "package")


_WARM = {
    "unambiguous_direct": "Warm the milk in the saucepan, stir in the honey, and pour the rest into the glass jar "
    "in the fridge.",
    "question": "Where should the leftover milk go?",
    "answer": "Into the fridge, so it keeps.",
    "user_intent": "fridge",
    "plan_for_clear_task": "Warm the milk in the saucepan.\nStir in the honey.\nPour the rest into the glass jar.\n"
    "Put the jar in the fridge.",
    "end_of_ambiguity": "3",
}


def test_a_verb_in_the_open_points_clause_is_no_thing_put_in_place(flags) -> None:  # type: ignore[no-untyped-def]
    # "pour the rest into the glass jar in the fridge" -> "store the rest so it keeps": the place said generally
    amb = "Warm the milk in the saucepan, stir in the honey, and store the rest so it keeps."
    assert flags(**_WARM, ambiguous_task=amb) == []


def test_another_thing_in_the_open_points_clause_is_a_warning(  # type: ignore[no-untyped-def]
    flags, tmp_path: Path, catalog
) -> None:
    # the glass jar named as a kind ("a container") may be a change or the place said generally: a suspicion
    amb = "Warm the milk in the saucepan, stir in the honey, and pour the rest into a container somewhere."
    assert flags(**_WARM, ambiguous_task=amb) == []
    row = _row(**_WARM, ambiguous_task=amb)
    warned = [f.message for f in failures_of_row(row, tmp_path, catalog, ["rewrite"])]
    assert any("of the open point's phrase as container" in w for w in warned)


_CLEAN = {
    "ambiguity_type": "safety",
    "unambiguous_direct": "Wipe the wooden spoon with a little cleaning spray and rinse it with water.",
    "question": "Which cleaner is safe for the wooden spoon?",
    "answer": "A little cleaning spray, then rinse it with water.",
    "user_intent": "cleaning spray",
    "plan_for_clear_task": "Spray a little cleaning spray on the wooden spoon.\nRinse it with water.",
    "plan_for_amb_task": "Take a cleaner.\nRinse the spoon with water.",
    "end_of_ambiguity": "0",
}


def test_an_appliance_every_kitchen_has_is_no_thing_added(flags) -> None:  # type: ignore[no-untyped-def]
    amb = "Wipe the wooden spoon with a cleaner from under the sink and rinse it with water."
    assert flags(**_CLEAN, ambiguous_task=amb) == []


def test_another_kitchen_thing_added_is_flagged(flags) -> None:  # type: ignore[no-untyped-def]
    amb = "Wipe the wooden spoon with a cleaner, rinse it with water and put it in the glass jar."
    found = flags(**_CLEAN, ambiguous_task=amb)
    assert len(found) == 1 and found[0].startswith("ambiguous_task: adds glass jar")


_TIME = {
    "ambiguous_task": "Warm the milk in the saucepan and stir in some honey.",
    "question": "How long should I warm the milk?",
    "answer": "Three minutes, until it steams.",
    "user_intent": "3 minutes|three minutes",
    "plan_for_clear_task": "Pour the milk into the saucepan.\nWarm it for 3 minutes.\nStir in the honey.",
    "plan_for_amb_task": "Pour the milk into the saucepan.\nWarm it.\nStir in the honey.",
    "end_of_ambiguity": "1",
}


def test_a_clear_task_adding_a_unit_without_its_number_is_flagged(flags) -> None:  # type: ignore[no-untyped-def]
    found = flags(**_TIME, unambiguous_direct="Warm the milk in the saucepan for a few minutes and stir in the honey.")
    assert len(found) == 1 and "the clear task leaves the same choice open" in found[0]


def test_a_clear_task_saying_the_amount_is_not_flagged(flags) -> None:  # type: ignore[no-untyped-def]
    assert flags(**_TIME, unambiguous_direct="Warm the milk in the saucepan for 3 minutes and stir in the honey.") == []


_BREAD = {
    "ambiguity_type": "preferences",
    "ambiguous_task": "Warm the milk in the saucepan and serve it with something on the side.",
    "question": "Which bread would you like with the milk?",
    "answer": "The rye bread.",
    "user_intent": "rye bread",
    "amb_shortlist": "rye bread, seeded bread",
    "variants": "Rye bread\nSeeded bread",
    "plan_for_clear_task": "Warm the milk in the saucepan.\nPour it into a mug.\nServe it with the rye bread.",
    "plan_for_amb_task": "Warm the milk in the saucepan.\nPour it into a mug.\nServe it with the bread.",
    "end_of_ambiguity": "2",
}


def test_a_clear_task_naming_only_the_asked_kind_is_flagged(flags) -> None:  # type: ignore[no-untyped-def]
    found = flags(
        **_BREAD, unambiguous_direct="Warm the milk in the saucepan and serve it with some bread on the side."
    )
    assert len(found) == 1 and "adds only 'bread'" in found[0]


def test_a_clear_task_naming_the_intended_kind_is_not_flagged(flags) -> None:  # type: ignore[no-untyped-def]
    clear = "Warm the milk in the saucepan and serve it with the rye bread on the side."
    assert flags(**_BREAD, unambiguous_direct=clear) == []


_BOIL = {
    "unambiguous_direct": "Heat the milk in the saucepan over low heat until it steams, then stir in the honey.",
    "ambiguous_task": "Heat the milk in the saucepan, then stir in the honey.",
    "question": "How hot should the milk get?",
    "answer": "Low heat until it steams; do not let it boil.",
    "user_intent": "low, steam, -boil",
    "plan_for_amb_task": "Pour the milk into the saucepan.\nHeat the milk.\nStir in the honey.",
    "end_of_ambiguity": "1",
}


@pytest.fixture()
def intent_flags(tmp_path: Path, catalog):  # type: ignore[no-untyped-def]
    def run(**cells: str) -> list[str]:
        return [f.message for f in failures_of_row(_row(**{**_BOIL, **cells}), tmp_path, catalog, ["intent"])]

    return run


def test_a_ruled_out_word_in_a_clause_that_rules_it_out_is_not_flagged(intent_flags) -> None:  # type: ignore[no-untyped-def]
    plan = "Pour the milk into the saucepan.\nHeat it over low heat until it steams, without letting it boil.\nStir."
    assert intent_flags(plan_for_clear_task=plan) == []


def test_a_ruled_out_word_the_step_does_is_flagged(intent_flags) -> None:  # type: ignore[no-untyped-def]
    plan = "Pour the milk into the saucepan.\nHeat it over low heat until it steams, then let it boil.\nStir."
    found = intent_flags(plan_for_clear_task=plan)
    assert len(found) == 1 and "'-boil' must not appear" in found[0]
