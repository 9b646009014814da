"""One hand-written pair per built-in ambiguity type, with the item's own question and gold answer, and the
scripted agents the debate tests play."""

from __future__ import annotations

from typing import Any

from ambiforge.evaluation.scripted import ScriptedModel, Scripts
from ambiforge.models import Item
from tests.unit.evaluation.fixtures import item


def pair(
    id: str,
    kind: str,
    env: str,
    amb: str,
    clear: str,
    question: str,
    answer: str,
    intent: list[str],
    shortlist: list[str],
    before: str,
) -> Item:
    """The evaluation fixtures' pair with the item's own question and answer (variants: the shortlist, else
    the intent)."""
    return item(id, kind, env, amb, clear, intent, shortlist or intent, shortlist, question, answer, before)


PAIRS: dict[str, Item] = {
    "preferences": pair(
        "P1",
        "preferences",
        "glass mug, ceramic mug, whole milk, sponge",
        "Pour the milk into a mug.",
        "Pour the milk into the ceramic mug.",
        "Which mug should I pour the milk into?",
        "The ceramic mug, please.",
        ["ceramic mug"],
        ["glass mug", "ceramic mug"],
        "Take the whole milk.",
    ),
    "common_sense_knowledge": pair(
        "C1",
        "common_sense_knowledge",
        "whisk, metal bowl, eggs, frying pan",
        "Beat two eggs in the metal bowl with a suitable tool.",
        "Beat two eggs in the metal bowl with the whisk.",
        "Which tool should I use to beat the eggs?",
        "Use the whisk.",
        ["whisk"],
        [],
        "Crack two eggs into the metal bowl.",
    ),
    "safety": pair(
        "S1",
        "safety",
        "metal bowl, ceramic bowl, tomato soup, shears",
        "Heat the tomato soup in a bowl in the microwave.",
        "Heat the tomato soup in the ceramic bowl in the microwave.",
        "Can I heat the soup in the metal bowl?",
        "No, metal must not go in the microwave; use the ceramic bowl.",
        ["ceramic bowl", "-metal bowl"],
        [],
        "Take the tomato soup.",
    ),
}

VAGUE = ("What should I do?", "Can you clarify?", "Which one?")
UNRELATED = ("What is the weather like today?", "Did you enjoy the football match yesterday?")


def record(kind: str, **changes: Any) -> dict[str, Any]:
    return PAIRS[kind].model_copy(update=changes).to_record()


def agents(scripts: Scripts, names: tuple[str, ...] = ("a", "b", "c")) -> list[ScriptedModel]:
    return [ScriptedModel(name, scripts) for name in names]
