"""Twentieth round, end_of_ambiguity and answer_leak: a kitchen name is a thing whatever its words' classes
("can opener", "frying pan"); the intended option called by the word that tells it from the other options, where
no other kitchen thing has that word, gives it away."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.unit.validation.ambik_rows import rule_messages

PANTRY = "can opener, bottle opener, corkscrew, can of pears, colander, glass bowl, spoon"


@pytest.fixture()
def pantry(tmp_path: Path, catalog):  # type: ignore[no-untyped-def]
    return rule_messages(PANTRY, tmp_path, catalog)


def _can_row(first_clear: str) -> dict[str, str]:
    return {
        "ambiguity_type": "common_sense_knowledge",
        "unambiguous_direct": "Open the can of pears with the can opener and drain them in the colander.",
        "ambiguous_task": "Open the can of pears and drain them in the colander.",
        "question": "What should I open the can with?",
        "answer": "The can opener.",
        "plan_for_clear_task": f"1. {first_clear}\n2. Open the can with the can opener.\n3. Drain the pears.",
        "plan_for_amb_task": "1. Take the can of pears and something to open it.\n2. Open the can.\n"
        "3. Drain the pears.",
        "end_of_ambiguity": "1",
        "user_intent": "can opener, -bottle opener",
    }


def test_an_earlier_clear_step_naming_a_can_opener_moves_the_choice(pantry) -> None:  # type: ignore[no-untyped-def]
    found = pantry("end_of_ambiguity", **_can_row("Take the can of pears and the can opener."))
    assert len(found) == 1 and "already names the intended 'can opener'" in found[0]


def test_an_earlier_clear_step_without_the_opener_leaves_the_index(pantry) -> None:  # type: ignore[no-untyped-def]
    assert pantry("end_of_ambiguity", **_can_row("Take the can of pears.")) == []


OMELETTE = "frying pan, saucepan, stockpot, eggs, butter, whisk, glass bowl, spatula, stove"


def _pan_row(first_amb: str) -> dict[str, str]:
    return {
        "ambiguity_type": "common_sense_knowledge",
        "unambiguous_direct": "Whisk two eggs in the glass bowl and cook them in butter in the frying pan.",
        "ambiguous_task": "Whisk two eggs in the glass bowl and cook them in butter in a pan.",
        "question": "Which pan should the eggs go in?",
        "answer": "The frying pan.",
        "plan_for_clear_task": "1. Take the frying pan and the whisk.\n2. Whisk the eggs in the glass bowl.\n"
        "3. Melt butter in the frying pan.\n4. Cook the eggs.",
        "plan_for_amb_task": f"1. {first_amb}\n2. Whisk the eggs in the glass bowl.\n3. Melt butter in a pan.\n"
        "4. Cook the eggs.",
        "end_of_ambiguity": "2",
        "user_intent": "frying pan, -saucepan",
    }


def test_an_ambiguous_step_taking_the_frying_pan_leaks(tmp_path: Path, catalog) -> None:  # type: ignore[no-untyped-def]
    run = rule_messages(OMELETTE, tmp_path, catalog)
    found = run("answer_leak", **_pan_row("Take the frying pan and the whisk."))
    assert len(found) == 1 and "already names the intended 'frying pan'" in found[0]


def test_an_ambiguous_step_taking_only_the_whisk_does_not(tmp_path: Path, catalog) -> None:  # type: ignore[no-untyped-def]
    run = rule_messages(OMELETTE, tmp_path, catalog)
    assert run("answer_leak", **_pan_row("Take the whisk.")) == []


def _napkin_row(task_end: str) -> dict[str, str]:
    return {
        "ambiguity_type": "preferences",
        "amb_shortlist": "cloth napkins, paper napkins",
        "variants": "cloth napkins\npaper napkins",
        "unambiguous_direct": f"Lay a cloth napkin beside each soup bowl{task_end}",
        "ambiguous_task": f"Lay a napkin beside each soup bowl{task_end}",
        "question": "Do you want the cloth or the paper napkins?",
        "answer": "The cloth ones.",
        "plan_for_clear_task": "1. Take four cloth napkins.\n2. Lay one beside each soup bowl.",
        "plan_for_amb_task": "1. Take four napkins.\n2. Lay one beside each soup bowl.",
        "end_of_ambiguity": "0",
        "user_intent": "cloth napkins",
    }


def test_the_task_calling_the_napkin_by_its_material_leaks(tmp_path: Path, catalog) -> None:  # type: ignore[no-untyped-def]
    run = rule_messages("soup bowls, cloth napkins, paper napkins, spoons", tmp_path, catalog)
    found = run("answer_leak", **_napkin_row(", and press the cloth smooth."))
    assert len(found) == 1 and "by 'cloth'" in found[0]


def test_a_word_another_kitchen_thing_has_tells_nothing(tmp_path: Path, catalog) -> None:  # type: ignore[no-untyped-def]
    run = rule_messages("soup bowls, cloth napkins, paper napkins, spoons, dish cloth", tmp_path, catalog)
    assert run("answer_leak", **_napkin_row(", and press the cloth smooth.")) == []


def test_a_portion_named_by_the_word_tells_nothing(tmp_path: Path, catalog) -> None:  # type: ignore[no-untyped-def]
    run = rule_messages("soup bowls, cloth napkins, paper napkins, spoons", tmp_path, catalog)
    assert run("answer_leak", **_napkin_row(", with a cloth of bread crumbs on it.")) == []


BINS = "compost bin, recycling bin, trash can, banana peels, glass jars, sink"


def _bin_row(first_amb: str) -> dict[str, str]:
    return {
        "ambiguity_type": "common_sense_knowledge",
        "variants": "compost bin\nrecycling bin\ntrash can",
        "unambiguous_direct": "Rinse the glass jars for the recycling bin and put the banana peels in the compost bin.",
        "ambiguous_task": "Rinse the glass jars for the recycling bin and put the banana peels in the right bin.",
        "question": "Which bin do the banana peels go in?",
        "answer": "The compost bin.",
        "plan_for_clear_task": "1. Rinse the glass jars in the sink.\n2. Put the jars in the recycling bin.\n"
        "3. Put the banana peels in the compost bin.",
        "plan_for_amb_task": f"1. {first_amb}\n2. Put the jars in the recycling bin.\n"
        "3. Put the banana peels in the right bin.",
        "end_of_ambiguity": "2",
        "user_intent": "compost bin, -trash can",
    }


def test_a_step_adding_composting_leaks_the_compost_bin(tmp_path: Path, catalog) -> None:  # type: ignore[no-untyped-def]
    run = rule_messages(BINS, tmp_path, catalog)
    found = run("answer_leak", **_bin_row("Rinse the glass jars in the sink, keeping the peels for composting."))
    assert len(found) == 1 and "says 'composting' of the intended 'compost bin'" in found[0]


def test_a_step_adding_nothing_of_the_bin_does_not(tmp_path: Path, catalog) -> None:  # type: ignore[no-untyped-def]
    run = rule_messages(BINS, tmp_path, catalog)
    assert run("answer_leak", **_bin_row("Rinse the glass jars in the sink, keeping the peels aside.")) == []


SMOOTHIE = "blender, banana, frozen mango chunks, frozen strawberries, yogurt, tall glass, paper straw"


def _smoothie_row(task_end: str) -> dict[str, str]:
    return {
        "ambiguity_type": "preferences",
        "amb_shortlist": "frozen mango chunks, frozen strawberries",
        "variants": "frozen mango chunks\nfrozen strawberries",
        "unambiguous_direct": f"Blend a banana, frozen strawberries and yogurt, pour it in the tall glass{task_end}",
        "ambiguous_task": f"Blend a banana, frozen fruit and yogurt, pour it in the tall glass{task_end}",
        "question": "Which frozen fruit goes into the smoothie?",
        "answer": "The frozen strawberries.",
        "plan_for_clear_task": "1. Put the banana and frozen strawberries in the blender.\n2. Blend it.",
        "plan_for_amb_task": "1. Put the banana and frozen fruit in the blender.\n2. Blend it.",
        "end_of_ambiguity": "0",
        "user_intent": "frozen strawberries",
    }


def test_a_straw_is_no_word_of_the_strawberries(tmp_path: Path, catalog) -> None:  # type: ignore[no-untyped-def]
    run = rule_messages(SMOOTHIE, tmp_path, catalog)
    assert run("answer_leak", **_smoothie_row(" with a straw.")) == []


STORE = "fridge, freezer, plastic tub, marker, leftover chili"


def test_a_word_of_the_freezers_family_still_leaks(tmp_path: Path, catalog) -> None:  # type: ignore[no-untyped-def]
    run = rule_messages(STORE, tmp_path, catalog)
    found = run(
        "answer_leak",
        ambiguity_type="preferences",
        amb_shortlist="fridge, freezer",
        variants="fridge\nfreezer",
        unambiguous_direct="Spoon the chili into the plastic tub, write 'frozen' on it and put it in the freezer.",
        ambiguous_task="Spoon the chili into the plastic tub, write 'frozen' on it and put it away.",
        question="Should the chili go in the fridge or the freezer?",
        answer="The freezer.",
        plan_for_clear_task="1. Spoon the chili into the plastic tub.\n2. Put the tub in the freezer.",
        plan_for_amb_task="1. Spoon the chili into the plastic tub.\n2. Put the tub away.",
        end_of_ambiguity="1",
        user_intent="freezer",
    )
    assert len(found) == 1 and "'frozen'" in found[0]


def test_a_step_gathering_all_the_equipment_chooses_nothing(tmp_path: Path, catalog) -> None:  # type: ignore[no-untyped-def]
    run = rule_messages(OMELETTE, tmp_path, catalog)
    row = _pan_row("Gather all the necessary equipment, including the frying pan, the saucepan and the whisk.")
    assert run("answer_leak", **row) == []


def test_the_food_a_tool_is_for_is_not_the_tool(tmp_path: Path, catalog) -> None:  # type: ignore[no-untyped-def]
    run = rule_messages("bread knife, paring knife, baguette, cutting board", tmp_path, catalog)
    found = run(
        "answer_leak",
        ambiguity_type="preferences",
        amb_shortlist="bread knife, paring knife",
        variants="bread knife\nparing knife",
        unambiguous_direct="Slice the baguette on the cutting board with the bread knife.",
        ambiguous_task="Slice the bread on the cutting board with a knife.",
        question="Which knife should I use?",
        answer="The bread knife.",
        plan_for_clear_task="1. Put the baguette on the cutting board.\n2. Slice it with the bread knife.",
        plan_for_amb_task="1. Put the baguette on the cutting board.\n2. Slice it with a knife.",
        end_of_ambiguity="1",
        user_intent="bread knife",
    )
    assert found == []


def test_a_food_that_is_the_option_itself_leaks(tmp_path: Path, catalog) -> None:  # type: ignore[no-untyped-def]
    run = rule_messages("canned corn, canned beans, frying pan, stove", tmp_path, catalog)
    found = run(
        "answer_leak",
        ambiguity_type="preferences",
        amb_shortlist="canned corn, canned beans",
        variants="canned corn\ncanned beans",
        unambiguous_direct="Heat the frying pan on the stove and add the canned corn.",
        ambiguous_task="Heat the frying pan on the stove and add the corn.",
        question="Which can should I open?",
        answer="The canned corn.",
        plan_for_clear_task="1. Heat the frying pan on the stove.\n2. Add the canned corn.",
        plan_for_amb_task="1. Heat the frying pan on the stove.\n2. Add the contents of a can.",
        end_of_ambiguity="1",
        user_intent="canned corn",
    )
    assert len(found) == 1 and "by 'corn'" in found[0]
