"""The keyword user gives the gold answer only to a question that touches what the ambiguous task leaves open:
questions that share the pair's objects but ask about something else get no information (one fixture pair
per built-in ambiguity type, found through the registry)."""

from __future__ import annotations

from pathlib import Path

import pytest

from ambiforge import ambiguity
from ambiforge.detectors.open_slot import concept_texts, root, slot_of, wh_target, words
from ambiforge.detectors.simulated_user import CONFIRM, GOLD, REDIRECT, REDIRECT_TEXT, hidden_from_item, keyword_reply
from ambiforge.models import EnvObject
from tests.unit.detectors.fixtures import OFF_TOPIC, ON_TOPIC, PAIRS


def builtin_types() -> list[str]:
    shipped = Path(ambiguity.__file__).parent / "builtin"
    # Environment-induced types keep the words (no slot for the simulated user to answer from): not here.
    return sorted(
        n
        for n in ambiguity.names()
        if ambiguity.get(n).folder.parent == shipped and ambiguity.get(n).minimal_pair != "same_instruction"
    )


def test_every_builtin_type_has_off_topic_and_on_topic_questions() -> None:
    assert set(builtin_types()) <= set(OFF_TOPIC) & set(ON_TOPIC) & set(PAIRS)


@pytest.mark.parametrize("kind", builtin_types())
def test_own_question_still_gets_the_gold_answer(kind: str) -> None:
    item = PAIRS[kind]
    assert keyword_reply(item.question, hidden_from_item(item)).text == item.answer


@pytest.mark.parametrize("kind", builtin_types())
def test_off_topic_questions_sharing_objects_get_no_information(kind: str) -> None:
    item = PAIRS[kind]
    hidden = hidden_from_item(item)
    scene = set().union(*(words(o) for o in hidden.scene))
    for question in OFF_TOPIC[kind]:
        reply = keyword_reply(question, hidden)
        assert words(question) & (scene | words(item.ambiguous_task)), question  # it does share the pair's words
        assert reply.kind != GOLD and reply.text != item.answer, (question, reply.reason)
        if not question.startswith(("Should", "Can", "Is")):
            assert (reply.kind, reply.text) == (REDIRECT, REDIRECT_TEXT), question


@pytest.mark.parametrize("kind", builtin_types())
def test_templated_questions_about_scene_objects_the_task_does_not_use_get_the_redirect(kind: str) -> None:
    """Built from the fixture's scene, like the bench: every object neither task mentions and that is none of
    the options."""
    item = PAIRS[kind]
    hidden = hidden_from_item(item)
    used = words(item.ambiguous_task) | words(item.unambiguous_direct)
    options = set().union(*(words(o) for o in concept_texts([*item.user_intent, *item.amb_shortlist])))
    untouched = [o.name for o in item.environment if not words(o.name) & (used | options)]
    assert untouched
    for name in untouched:
        for question in (f"Where is the {name} kept?", f"Should I also wash the {name}?"):
            assert keyword_reply(question, hidden).kind == REDIRECT, question


@pytest.mark.parametrize("kind", builtin_types())
def test_questions_that_ask_for_the_open_slot_get_the_gold_answer(kind: str) -> None:
    item = PAIRS[kind]
    hidden = hidden_from_item(item)
    proposals = [f"Should I use the {o}?" for o in concept_texts(item.user_intent)]
    for question in (*ON_TOPIC[kind], *proposals):
        reply = keyword_reply(question, hidden)
        assert (reply.kind, reply.text) == (GOLD, item.answer), (question, reply.reason)


@pytest.mark.parametrize("kind", builtin_types())
def test_restating_the_ambiguous_task_is_a_confirmation(kind: str) -> None:
    item = PAIRS[kind]
    task = item.ambiguous_task.rstrip(".")
    question = f"Should I {task[0].lower()}{task[1:]}?"
    assert keyword_reply(question, hidden_from_item(item)).kind == CONFIRM


def test_a_question_about_another_dish_is_a_redirect_even_when_it_names_the_slot_kind() -> None:
    hidden = hidden_from_item(PAIRS["preferences"])
    reply = keyword_reply("Which mug should I use for the hot chocolate with cinnamon?", hidden)
    assert reply.kind == REDIRECT and "never mentions" in reply.reason


def test_where_questions_follow_what_the_slot_is() -> None:
    pref = hidden_from_item(PAIRS["preferences"])  # the slot is where the milk goes (into the ceramic mug)
    assert keyword_reply("Where should I pour the milk?", pref).kind == GOLD
    assert keyword_reply("Where is the milk kept?", pref).kind == REDIRECT  # where it is: not the slot
    fridge = hidden_from_item(
        PAIRS["common_sense_knowledge"].model_copy(
            update={
                "ambiguous_task": "Squeeze the juice of the oranges with the citrus juicer.",
                "unambiguous_direct": "Squeeze the juice of the oranges from the fridge with the citrus juicer.",
                "answer": "In the fridge.",
                "user_intent": ["fridge"],
            }
        )
    )
    assert slot_of(fridge).source
    assert keyword_reply("Where can I find the oranges?", fridge).kind == GOLD
    away = hidden_from_item(
        PAIRS["common_sense_knowledge"].model_copy(
            update={
                "ambiguous_task": "Preheat the oven, then put the whole milk away.",
                "unambiguous_direct": "Preheat the oven, then put the whole milk in the fridge.",
                "answer": "In the fridge.",
                "user_intent": ["fridge"],
                "environment": [EnvObject(name="whole milk"), EnvObject(name="oven")],
            }
        )
    )
    assert keyword_reply("Where should I put the whole milk?", away).kind == GOLD  # the object at the gap
    assert keyword_reply("Where is the oven kept?", away).kind == REDIRECT


def test_slot_of_finds_the_gap_between_the_two_tasks() -> None:
    slot = slot_of(hidden_from_item(PAIRS["common_sense_knowledge"]))
    assert "whisk" in slot.marks and "whisk" in slot.heads
    assert {"suitabl", "tool"} <= slot.anchor  # what the clear task replaces
    assert "bowl" not in slot.anchor  # a given neighbour of a replaced phrase is not the gap
    pref = slot_of(hidden_from_item(PAIRS["preferences"]))
    assert pref.anchor >= {"mug"} and "ceramic" in pref.marks  # an inserted modifier anchors on its head


def test_wh_target_and_root() -> None:
    assert wh_target("Which type of bowl should I use?") == ["bowl"]
    assert wh_target("Which specific kitchen tool should be used?") == []  # a category asks for whatever fits
    assert wh_target("What should I use?") == []
    assert root("added") == root("add") and root("sliced") == root("slicing") == root("slice")
    assert root("chopped") == root("chop") and root("blender") != root("blend")
