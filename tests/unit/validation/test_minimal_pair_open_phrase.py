"""minimal_pair reads where a rewrite changes the clear task: in the open point's own phrase (the clause that
says what the intent is about) a vaguer wording is the open point said generally, not a second change; in
another clause, or a kitchen thing named as another thing, it is a change beside the open point. A kitchen
thing the ambiguous task adds is another task. An intent word kept only where the clear task has it twice is
left to answer_leak. Each check: a row it must flag and a near row it must not."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.unit.validation.ambik_rows import environment, failures_of_row

ENV = "stove, saucepan, milk, honey, cinnamon, fridge, freezer, glass jar, soup pot, wooden spoon, ladle, mugs"


def _row(**cells: str) -> dict[str, str]:
    row = {
        "id": "1",
        **environment(cells.pop("env", ENV)),
        "ambiguity_type": "common_sense_knowledge",
        "unambiguous_direct": "Warm the milk in the saucepan, stir in the honey, and store the rest in the fridge.",
        "ambiguous_task": "Warm the milk in the saucepan, stir in the honey, and store the rest somewhere.",
        "question": "Where should the leftover milk go?",
        "answer": "Into the fridge, so it keeps.",
        "user_intent": "fridge",
        "plan_for_clear_task": "Warm the milk in the saucepan.\nStir in the honey.\nPut the rest in the fridge.",
        "plan_for_amb_task": "Warm the milk in the saucepan.\nStir in the honey.\nPut the rest away.",
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


def test_a_vaguer_verb_in_the_open_points_own_clause_is_not_flagged(flags) -> None:  # type: ignore[no-untyped-def]
    # "store the rest in the fridge" -> "keep the rest cold": the place said more generally
    assert flags(ambiguous_task="Warm the milk in the saucepan, stir in the honey, and keep the rest cold.") == []


def test_a_verb_changed_in_another_clause_is_flagged(flags) -> None:  # type: ignore[no-untyped-def]
    found = flags(ambiguous_task="Warm the milk in the saucepan, blend in the honey, and keep the rest cold.")
    assert len(found) == 1 and "changes more than the open point: drops stir and adds blend" in found[0]


def test_a_thing_named_as_a_kind_in_the_open_points_clause_is_a_warning(  # type: ignore[no-untyped-def]
    flags, tmp_path: Path, catalog
) -> None:
    # on rows in other hands as often the open point said more generally as a second change: a suspicion
    cells = dict(
        unambiguous_direct="Warm the milk in the saucepan and pour it with the honey into the glass jar in the fridge.",
        ambiguous_task="Warm the milk in the saucepan and pour it with the sweetener into the glass jar somewhere.",
    )
    assert flags(**cells) == []
    warned = [f.message for f in failures_of_row(_row(**cells), tmp_path, catalog, ["rewrite"])]
    assert len(warned) == 1 and "names honey of the open point's phrase as sweetener" in warned[0]


def test_a_kitchen_thing_the_ambiguous_task_adds_is_flagged(flags) -> None:  # type: ignore[no-untyped-def]
    found = flags(
        ambiguous_task="Warm the milk in the saucepan, stir in honey and cinnamon, and store the rest somewhere."
    )
    assert len(found) == 1 and found[0].startswith("ambiguous_task: adds cinnamon")


def test_a_thing_the_clear_task_names_by_its_kind_is_not_added(flags) -> None:  # type: ignore[no-untyped-def]
    # "the jar" of the clear task is the glass jar the ambiguous task names in full
    assert (
        flags(
            unambiguous_direct="Warm the milk in the saucepan, pour it into the jar, and store it in the fridge.",
            ambiguous_task="Warm the milk in the saucepan, pour it into the glass jar, and store it somewhere.",
        )
        == []
    )


PREFERENCES = {
    "ambiguity_type": "preferences",
    "env": "saucepan, stove, beef chuck, lamb shoulder, beef stock, carrots, onions, ladle",
    "question": "Which meat should go in the stew?",
    "answer": "The beef chuck.",
    "user_intent": "beef",
    "amb_shortlist": "beef chuck, lamb shoulder",
}


def test_an_intent_word_kept_as_often_as_the_clear_task_says_it_is_flagged(flags) -> None:  # type: ignore[no-untyped-def]
    found = flags(
        **PREFERENCES,
        unambiguous_direct="Brown the beef chuck in the saucepan and simmer it with carrots.",
        ambiguous_task="Brown the beef in the saucepan and simmer it with carrots.",
    )
    assert any("still names every intent concept ('beef')" in f for f in found)


def test_an_intent_word_left_only_in_a_longer_name_is_not_kept(flags) -> None:  # type: ignore[no-untyped-def]
    # the beef stock is another thing: the meat itself is left open
    found = flags(
        **PREFERENCES,
        unambiguous_direct="Brown the beef chuck in the saucepan and simmer it in beef stock with carrots.",
        ambiguous_task="Brown the meat in the saucepan and simmer it in beef stock with carrots.",
    )
    assert not any("still names every intent concept" in f for f in found)


def test_a_general_alternative_of_the_intent_is_not_kept(flags) -> None:  # type: ignore[no-untyped-def]
    found = flags(
        **{
            **PREFERENCES,
            "user_intent": "penne|pasta",
            "question": "Which pasta should I cook?",
            "env": "saucepan, stove, penne, spaghetti, tomato sauce",
        },
        unambiguous_direct="Cook the penne in the saucepan with tomato sauce.",
        ambiguous_task="Cook the pasta in the saucepan with tomato sauce.",
    )
    assert not any("still names every intent concept" in f for f in found)


def test_a_spelling_fixed_or_a_dish_verb_swapped_is_no_replacement(flags) -> None:  # type: ignore[no-untyped-def]
    assert (
        flags(
            unambiguous_direct="Prepare warm milk in the pan, zest lemon with the greater, and chill it in the fridge.",
            ambiguous_task="Create warm milk in the pan, zest lemon with the grater, and chill it somewhere.",
            env=ENV + ", lemon, grater",
        )
        == []
    )


def test_a_tool_swapped_outside_the_open_points_clause_is_flagged(flags) -> None:  # type: ignore[no-untyped-def]
    found = flags(
        unambiguous_direct="Warm the milk in the saucepan, zest the lemon with the grater, and chill it in the fridge.",
        ambiguous_task="Warm the milk in the saucepan, zest the lemon with the peeler, and chill it somewhere.",
        env=ENV + ", lemon, grater",
    )
    assert len(found) == 1 and "drops grater and adds peeler" in found[0]


def test_a_comma_inside_the_open_points_phrase_parts_no_clause(flags) -> None:  # type: ignore[no-untyped-def]
    # "a clean, empty glass jar" -> "a suitable container": one phrase, said generally
    assert (
        flags(
            unambiguous_direct="Warm the milk in the saucepan and pour it into a clean, empty glass jar.",
            ambiguous_task="Warm the milk in the saucepan and pour it into a suitable container.",
            question="Where should the milk go?",
            answer="Into the glass jar.",
            user_intent="glass jar",
        )
        == []
    )


def test_an_intent_word_both_tasks_name_elsewhere_still_marks_its_clause(flags) -> None:  # type: ignore[no-untyped-def]
    # "honey" is in both tasks ("honey milk"), but only the clear task says it where the choice is
    assert (
        flags(
            unambiguous_direct="Make honey milk in the saucepan, stir in the honey slowly, and keep it in the fridge.",
            ambiguous_task="Make honey milk in the saucepan, sweeten it to taste, and keep it in the fridge.",
            question="What should I sweeten the milk with?",
            answer="With honey.",
            user_intent="honey",
        )
        == []
    )
