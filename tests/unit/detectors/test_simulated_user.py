"""The simulated user: the item's own question gets the gold answer, a vague or unrelated one a redirect, a
confirmation that names no option a "yes"; the LLM user classifies but replies only with the item's text."""

from __future__ import annotations

from pathlib import Path

import pytest

from ambiforge import ambiguity
from ambiforge.detectors.simulated_user import (
    CONFIRM,
    CONFIRM_TEXT,
    GOLD,
    REDIRECT,
    REDIRECT_TEXT,
    answer,
    hidden_from_item,
    is_yes_no,
    keyword_reply,
)
from ambiforge.testing.scripted_eval import ScriptedModel, Scripts
from tests.unit.detectors.fixtures import PAIRS, UNRELATED, VAGUE


def test_every_builtin_type_has_a_fixture() -> None:
    shipped = Path(ambiguity.__file__).parent / "builtin"
    # The simulated user answers from the words the ambiguous task leaves out; environment-induced types
    # (minimal_pair: same_instruction) keep the words and change the kitchen, so they have no such slot.
    builtin = {
        n
        for n in ambiguity.names()
        if ambiguity.get(n).folder.parent == shipped and ambiguity.get(n).minimal_pair != "same_instruction"
    }
    assert builtin and builtin <= set(PAIRS)


@pytest.mark.parametrize("kind", sorted(PAIRS))
def test_own_question_gets_the_gold_answer_verbatim(kind: str) -> None:
    item = PAIRS[kind]
    reply = keyword_reply(item.question, hidden_from_item(item))
    assert (reply.kind, reply.text) == (GOLD, item.answer)
    assert reply.gets_gold


@pytest.mark.parametrize("kind", sorted(PAIRS))
@pytest.mark.parametrize("question", VAGUE + UNRELATED)
def test_vague_or_unrelated_question_gets_a_redirect(kind: str, question: str) -> None:
    reply = keyword_reply(question, hidden_from_item(PAIRS[kind]))
    assert (reply.kind, reply.text) == (REDIRECT, REDIRECT_TEXT)


def test_a_confirmation_that_names_no_option_gets_yes() -> None:
    hidden = hidden_from_item(PAIRS["preferences"])
    assert keyword_reply("Should I pour the milk now?", hidden).kind == CONFIRM
    assert keyword_reply("Should I pour the milk now?", hidden).text == CONFIRM_TEXT
    # naming an option is no longer a mere confirmation: the gold answer says which
    assert keyword_reply("Should I pour the milk into the glass mug?", hidden).kind == GOLD
    # a wh-question about the ambiguous object's category addresses the choice
    assert keyword_reply("Which mug do you want?", hidden).kind == GOLD


def test_a_yes_no_question_proposing_a_scene_object_gets_the_gold_answer() -> None:
    hidden = hidden_from_item(PAIRS["safety"])
    assert keyword_reply("Can I cut the soup bag with the shears?", hidden).kind == GOLD
    assert keyword_reply("Should I heat the soup?", hidden).kind == CONFIRM


def test_yes_no_detection() -> None:
    assert is_yes_no("Robot, should I use the mug?")
    assert is_yes_no("Is it the red one?")
    assert not is_yes_no("Which mug?")
    assert not is_yes_no("Should I use the red or the blue mug?")  # an alternative question asks which


@pytest.mark.parametrize(("raw", "kind"), [("ADDRESSES", GOLD), ("confirmation.", CONFIRM), ("Vague", REDIRECT)])
def test_llm_user_classifies_and_replies_verbatim(raw: str, kind: str) -> None:
    item = PAIRS["preferences"]
    model = ScriptedModel("u", Scripts(classify={"Anything?": raw}))
    asked = answer("Anything?", hidden_from_item(item), "llm", model, "P1", 0)
    assert asked.reply.kind == kind
    assert asked.reply.text in (item.answer, CONFIRM_TEXT, REDIRECT_TEXT)
    assert asked.error is None and len(asked.calls) == 1


def test_llm_user_unscripted_follows_the_question() -> None:
    item = PAIRS["preferences"]
    model = ScriptedModel("u")
    hidden = hidden_from_item(item)
    assert answer(item.question, hidden, "llm", model, "P1", 0).reply.kind == GOLD
    assert answer("What is the weather like today?", hidden, "llm", model, "P1", 0).reply.kind == REDIRECT


def test_llm_user_unusable_classification_is_an_error_and_leaks_nothing() -> None:
    model = ScriptedModel("u", Scripts(classify={"Which mug?": "The ceramic mug obviously"}))
    asked = answer("Which mug?", hidden_from_item(PAIRS["preferences"]), "llm", model, "P1", 0)
    assert asked.error is not None and "simulated user" in asked.error
    assert asked.reply.text == REDIRECT_TEXT
