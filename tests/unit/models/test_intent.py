"""One intent parser: validation's rules and the detectors read ``user_intent`` the same way."""

from __future__ import annotations

from ambiforge.detectors.intent import satisfies
from ambiforge.models.intent import Concept, parse_intent
from ambiforge.validation.rules.text import intent_concepts


def test_a_negated_alternative_is_two_forbidden_words_for_both_readers() -> None:
    intent = ["ceramic|glass", "-metal|steel", "  ", "Bowl"]
    assert parse_intent(intent) == (
        Concept(("ceramic", "glass"), False),
        Concept(("metal", "steel"), True),
        Concept(("bowl",), False),
    )
    positives, negatives = intent_concepts(intent)
    assert positives == [["ceramic", "glass"], ["bowl"]]
    assert negatives == ["metal", "steel"]  # once read as the one phrase "metal|steel"
    assert satisfies("Take the glass bowl", intent)
    assert not satisfies("Take the steel bowl", intent)  # "steel" alone breaks the negation


def test_white_space_and_case_fold_in_concepts() -> None:
    assert parse_intent(["Glass   Mug"]) == (Concept(("glass mug",), False),)
    assert satisfies("put the glass  mug\non the shelf", ["Glass   Mug"])
