"""How the offline generator refers to things: definite, ambiguous and paraphrased references, a/an,
prepositions, plurals, and the politeness styles that frame a task ("Robot, please ...").
"""

from __future__ import annotations

import random
import re

from ambiforge.catalog import CatalogObject, Group
from ambiforge.environment.articles import indefinite

_IRREGULAR_PLURALS = {"knife": "knives", "glass": "glasses", "dish": "dishes", "box": "boxes"}
_ON_NOUNS = {"plate", "saucer", "serving tray", "cutting board", "baking tray"}
_MATERIAL_WORDS = {
    "glass": "glass",
    "ceramic": "ceramic",
    "metal": "metal",
    "plastic": "plastic",
    "wooden": "wood",
    "paper": "paper",
    "porcelain": "porcelain",
    "enamel": "enamel",
    "clay": "clay",
    "silicone": "silicone",
    "bamboo": "bamboo",
    "marble": "marble",
    "copper": "copper",
    "aluminum": "aluminum",
    "steel": "steel",
    "stainless steel": "stainless steel",
    "cast iron": "cast iron",
    "cotton": "cotton",
    "linen": "linen",
    "microfiber": "microfiber",
    "cellulose": "cellulose",
}

#: (prefix, closing punctuation); the same style frames a pair's direct, indirect and ambiguous task.
STYLES: tuple[tuple[str, str], ...] = (
    ("", "."),
    ("Please ", "."),
    ("Robot, please ", "."),
    ("Robot, ", "."),
    ("Could you ", "?"),
    ("Can you ", "?"),
    ("I need you to ", "."),
    ("Would you ", "?"),
)


def plural(noun: str) -> str:
    head, _, last = noun.rpartition(" ")
    if last in _IRREGULAR_PLURALS:
        p = _IRREGULAR_PLURALS[last]
    elif last.endswith(("s", "sh", "ch", "x")):
        p = last + "es"
    elif last.endswith("y") and last[-2:-1] not in "aeiou":
        p = last[:-1] + "ies"
    else:
        p = last + "s"
    return f"{head} {p}" if head else p


def the(obj: CatalogObject) -> str:
    return f"the {obj.name}"


def some(group: Group) -> str:
    """How a person names an unspecified member of the group: 'a mug', 'some juice', 'some eggs'."""
    if group.noun_mass or group.noun_plural:
        return f"some {group.noun}"
    return f"{indefinite(group.noun)} {group.noun}"


def the_noun(group: Group) -> str:
    return f"the {group.noun}"


def preposition(noun: str) -> str:
    return "on" if noun in _ON_NOUNS else "in"


def indirect(obj: CatalogObject) -> str:
    """A paraphrase that still picks out exactly this object: 'the mug made of glass'."""
    if obj.kind == "kitchen_item" and obj.modifier in _MATERIAL_WORDS:
        return f"the {obj.noun} made of {_MATERIAL_WORDS[obj.modifier]}"
    if obj.kind == "food" and obj.modifier != obj.name and not obj.plural:
        return f"the {obj.modifier} kind of {obj.noun}"
    return the(obj)


def apply_style(sentence: str, style: tuple[str, str]) -> str:
    """Frame an imperative sentence ('Pour the milk into the mug.') in a politeness style."""
    prefix, end = style
    body = sentence.rstrip(".?! ")
    if prefix:
        body = body[0].lower() + body[1:]
    text = prefix + body + end
    return text[0].upper() + text[1:]


def join_or(names: list[str]) -> str:
    refs = [f"the {n}" for n in names]
    return refs[0] if len(refs) == 1 else ", ".join(refs[:-1]) + " or " + refs[-1]


def mentions(text: str, phrase: str) -> bool:
    """Whole-word, case-insensitive containment (so 'glass' is not found in 'glasses')."""
    return re.search(rf"(?<![\w-]){re.escape(phrase.lower())}(?![\w-])", text.lower()) is not None


def pick(rng: random.Random, options: tuple[str, ...] | list[str]) -> str:
    return options[rng.randrange(len(options))]
