"""One hand-written pair per built-in ambiguity type, with the item's own question and gold answer, and the
scripted agents the debate tests play."""

from __future__ import annotations

from typing import Any

from ambiforge.models import Item
from ambiforge.testing.scripted_eval import ScriptedModel, Scripts
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

#: Per pair, questions that share objects (or words) with it but do not ask what its ambiguous task leaves
#: open: about a scene object the task does not use, about a given object of the task, another pair's
#: question naming a word of the options, another dish. Each must get the redirect (or, for a yes/no one, at
#: most the confirmation), never the gold answer.
OFF_TOPIC: dict[str, tuple[str, ...]] = {
    "preferences": (
        "Where is the sponge kept?",
        "Should I also wash the sponge?",
        "Where is the whole milk kept?",
        "Which type of glass should be used for the red wine?",
        "Which glass should I use?",
    ),
    "common_sense_knowledge": (
        "Where is the frying pan kept?",
        "Should I also wash the frying pan?",
        "Where are the eggs kept?",
        "Which bowl should I use?",
        "Which type of oil should be used for heating in the pan?",
    ),
    "safety": (
        "Where is the tomato soup kept?",
        "Should I also wash the shears?",
        "Where are the shears kept?",
        "Which knife should I use to cut the soup bag?",
        "Can I use any bowl to cook the jasmine rice in the oven?",
    ),
}
#: Per pair, other questions that do ask for what the task leaves open (the gold answer says which).
ON_TOPIC: dict[str, tuple[str, ...]] = {
    "preferences": ("Can I use any mug?", "Where should I pour the milk?", "What should I pour the milk into?"),
    "common_sense_knowledge": ("What should I use to beat the eggs?", "Can I beat them with the frying pan?"),
    "safety": ("Which bowl should I use?", "Is it safe to use the metal bowl?", "Where should I heat the soup?"),
}
VAGUE = ("What should I do?", "Can you clarify?", "Which one?")
UNRELATED = ("What is the weather like today?", "Did you enjoy the football match yesterday?")


def record(kind: str, **changes: Any) -> dict[str, Any]:
    return PAIRS[kind].model_copy(update=changes).to_record()


def agents(scripts: Scripts, names: tuple[str, ...] = ("a", "b", "c")) -> list[ScriptedModel]:
    return [ScriptedModel(name, scripts) for name in names]
