"""answer_leak on the ambiguous task and on a setting: the task that still says the intended option as often
as the clear task does, and a step before end_of_ambiguity that already says the intended heat."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.unit.validation.ambik_rows import environment, failures_of_row

ENV = "soup pot, ketchup, mustard, tomato paste, tomato, knife block, stove"
OPEN = "Make tomato soup in the soup pot with a can of tomato paste and a tablespoon of a condiment."
CLEAR = "Make tomato soup in the soup pot with a can of tomato paste and a tablespoon of mustard."


@pytest.fixture()
def leak(tmp_path: Path, catalog):  # type: ignore[no-untyped-def]
    def run(**cells: str) -> list[str]:
        row = {
            "id": "1",
            **environment(ENV),
            "unambiguous_direct": CLEAR,
            "ambiguity_type": "preferences",
            "amb_shortlist": "ketchup, mustard, tomato paste",
            "ambiguous_task": OPEN,
            "question": "Which condiment should I add to the soup?",
            "answer": "Mustard.",
            "plan_for_clear_task": "1. Put the tomato paste in the soup pot.\n2. Add the mustard.\n3. Heat the soup.",
            "plan_for_amb_task": "1. Put the tomato paste in the soup pot.\n2. Add the condiment.\n3. Heat the soup.",
            "end_of_ambiguity": "1",
            "user_intent": "mustard",
            **cells,
        }
        return [f.message for f in failures_of_row(row, tmp_path, catalog, ["answer_leak"])]

    return run


def test_the_ambiguous_task_naming_the_intended_option_leaks_it(leak) -> None:  # type: ignore[no-untyped-def]
    flags = leak(ambiguous_task=CLEAR)
    assert len(flags) == 1 and "ambiguous_task: already names the intended 'mustard'" in flags[0]


def test_a_task_that_drops_the_option_or_offers_it_beside_another_leaks_nothing(leak) -> None:  # type: ignore[no-untyped-def]
    assert leak() == []
    offered = "Make tomato soup in the soup pot with a can of tomato paste and a tablespoon of mustard or ketchup."
    assert leak(ambiguous_task=offered) == []


def test_what_the_question_itself_names_is_no_leak(leak) -> None:  # type: ignore[no-untyped-def]
    assert leak(ambiguous_task=CLEAR, question="Should I add the mustard before the tomato paste?") == []


def test_a_count_the_task_already_says_leaks_it(leak) -> None:  # type: ignore[no-untyped-def]
    cells = {
        "amb_shortlist": "",
        "unambiguous_direct": "Slice three tomatoes with a knife from the knife block.",
        "question": "How many tomatoes should I slice?",
        "answer": "Three.",
        "user_intent": "3|three, tomatoes",
        "plan_for_clear_task": "1. Take a knife from the knife block.\n2. Slice three tomatoes.",
        "plan_for_amb_task": "1. Take a knife from the knife block.\n2. Slice the tomatoes.",
    }
    flags = leak(**cells, ambiguous_task="Slice three tomatoes with a knife from the knife block.")
    assert len(flags) == 1 and "count 'three'" in flags[0]
    assert leak(**cells, ambiguous_task="Slice some tomatoes with a knife from the knife block.") == []


def test_a_step_before_the_question_saying_the_intended_heat_leaks_it(leak) -> None:  # type: ignore[no-untyped-def]
    cells = {
        "amb_shortlist": "",
        "ambiguity_type": "common_sense_knowledge",
        "unambiguous_direct": "Heat the tomato soup on low heat on the stove and stir it.",
        "ambiguous_task": "Heat the tomato soup on the stove and stir it.",
        "question": "What heat level should I use for the soup?",
        "answer": "Low heat.",
        "user_intent": "low",
        "plan_for_clear_task": "1. Put the soup pot on the stove.\n2. Heat the soup on low heat.\n3. Stir the soup.",
        "end_of_ambiguity": "2",
    }
    leaked = "1. Put the soup pot on the stove.\n2. Heat the soup on low heat.\n3. Stir the soup."
    flags = leak(**cells, plan_for_amb_task=leaked)
    assert len(flags) == 1 and "setting 'low'" in flags[0]
    other = "1. Warm a little oil in the pan on low heat.\n2. Heat the soup.\n3. Stir the soup."
    assert leak(**cells, plan_for_amb_task=other) == []  # the step heats the oil, not the soup the question asks about


def test_a_step_before_the_question_saying_the_intended_temperature_leaks_it(leak) -> None:  # type: ignore[no-untyped-def]
    cells = {
        "amb_shortlist": "",
        "ambiguity_type": "common_sense_knowledge",
        "unambiguous_direct": "Bake the tomatoes in the oven at 375 degrees for 20 minutes.",
        "ambiguous_task": "Bake the tomatoes in the oven.",
        "question": "What temperature should I bake the tomatoes at?",
        "answer": "At 375 degrees.",
        "user_intent": "375 degrees|190°C",
        "plan_for_clear_task": "1. Preheat the oven to 375°F.\n2. Put the tomatoes in.\n3. Bake them for 20 minutes.",
        "end_of_ambiguity": "1",
    }
    flags = leak(**cells, plan_for_amb_task=cells["plan_for_clear_task"])
    assert len(flags) == 1 and "measure '375'" in flags[0]
    other = "1. Put 375 grams of tomatoes on a tray.\n2. Preheat the oven.\n3. Bake them."
    assert leak(**cells, plan_for_amb_task=other) == []  # 375 grams say how much, not how hot


def test_a_step_before_the_question_naming_the_intended_place_leaks_it(tmp_path: Path, catalog) -> None:  # type: ignore[no-untyped-def]
    def flags(plan: str) -> list[tuple[str, str]]:
        row = {
            "id": "1",
            **environment("milk carton, cereal, ceramic bowl"),
            "unambiguous_direct": "Put the milk carton in the fridge and the cereal in the bowl.",
            "ambiguity_type": "common_sense_knowledge",
            "ambiguous_task": "Put the milk carton away and the cereal in the bowl.",
            "question": "Where should I put the milk carton?",
            "answer": "In the fridge.",
            "plan_for_clear_task": "1. Put the milk carton in the fridge.\n2. Put the cereal in the bowl.",
            "plan_for_amb_task": plan,
            "end_of_ambiguity": "1",
            "user_intent": "fridge",
        }
        found = failures_of_row(row, tmp_path, catalog, ["answer_leak", "answer_leak_suspect"])
        return [(f.rule, f.message) for f in found]

    leaked = flags("1. Put the milk carton in the fridge.\n2. Put the cereal in the bowl.")
    assert [rule for rule, _ in leaked] == ["answer_leak"] and "'fridge'" in leaked[0][1]
    assert flags("1. Put the milk carton away.\n2. Put the cereal in the bowl.") == []


def test_a_task_naming_the_whole_intended_option_once_leaks_it(leak) -> None:  # type: ignore[no-untyped-def]
    clear = "Add a tablespoon of mustard to the soup pot, then stir the mustard into the tomato soup."
    once = "Add a tablespoon of mustard to the soup pot, then stir the condiment into the tomato soup."
    flags = leak(unambiguous_direct=clear, ambiguous_task=once)
    assert len(flags) == 1 and "'mustard'" in flags[0]
    both = "Add a tablespoon of mustard and ketchup to the soup pot, then stir the condiment into the tomato soup."
    assert leak(unambiguous_direct=clear, ambiguous_task=both) == []  # names another option too


def test_a_setting_asked_in_several_words_and_an_intent_naming_the_heat_leak_it(leak) -> None:  # type: ignore[no-untyped-def]
    cells = {
        "amb_shortlist": "",
        "ambiguity_type": "common_sense_knowledge",
        "unambiguous_direct": "Simmer the tomato soup in the soup pot on low heat and stir it.",
        "ambiguous_task": "Simmer the tomato soup in the soup pot and stir it.",
        "question": "Which stove burner setting should I use for the soup?",
        "answer": "Low, so it does not catch.",
        "user_intent": "low heat",
        "plan_for_clear_task": "1. Pour the soup into the soup pot.\n2. Simmer the soup on low.\n3. Stir the soup.",
        "end_of_ambiguity": "1",
    }
    leaked = "1. Pour the soup into the soup pot and keep the soup on low.\n2. Simmer the soup.\n3. Stir the soup."
    flags = leak(**cells, plan_for_amb_task=leaked)
    assert len(flags) == 1 and "setting 'low'" in flags[0]
    plain = "1. Pour the soup into the soup pot.\n2. Simmer the soup.\n3. Stir the soup."
    assert leak(**cells, plan_for_amb_task=plain) == []
