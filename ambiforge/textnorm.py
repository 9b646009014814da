"""Text normalisation shared by generation (duplicate resolution) and validation (duplicate rules), so
both agree on when two tasks are the same task."""

from __future__ import annotations

import re
import unicodedata
from functools import lru_cache

_SPACE = re.compile(r"\s+")
_PUNCT = re.compile(r"[^\w\s'|-]")
FUNCTION_WORDS = frozenset(
    {"a", "an", "the", "some", "me", "my", "you", "your", "i", "robot", "please", "could", "can", "would"}
    | {"will", "need", "to", "for", "of", "and", "it", "them", "this", "that"}
)


#: Cardinal numbers as words, as tasks say them ("six slices", "forty-five minutes", "half"): values a plan
#: must carry (world coverage) and quantities that are never objects (validation).
CARDINALS = frozenset(
    [
        "one",
        "two",
        "three",
        "four",
        "five",
        "six",
        "seven",
        "eight",
        "nine",
        "ten",
        "eleven",
        "twelve",
        "fifteen",
        "twenty",
        "twenty-five",
        "thirty",
        "forty",
        "forty-five",
        "fifty",
        "sixty",
        "half",
    ]
)


def fold_accents(text: str) -> str:
    """The text with accents dropped ("jalapeño" -> "jalapeno", "crème fraîche" -> "creme fraiche"): a name
    written with or without them is one name."""
    if text.isascii():
        return text
    return unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode()


def normalise(text: str) -> str:
    """Lowercase, punctuation out, spaces folded: 'Robot, bring me the mug.' -> 'robot bring me the mug'."""
    return _SPACE.sub(" ", _PUNCT.sub(" ", text.lower())).strip()


def signature(text: str) -> str:
    """A task's content words, sorted: politeness and function words do not make a new task."""
    return " ".join(sorted({w for w in normalise(text).split() if w not in FUNCTION_WORDS}))


_IRREGULAR_SINGULARS = {
    "knives": "knife",
    "leaves": "leaf",
    "loaves": "loaf",
    "halves": "half",
    "shelves": "shelf",
    "children": "child",
    "teeth": "tooth",
    "geese": "goose",
    "mice": "mouse",
    "dishes": "dish",
    "glasses": "glass",
    "boxes": "box",
    "peaches": "peach",
    "sandwiches": "sandwich",
    "radishes": "radish",
    "squashes": "squash",
    "lunches": "lunch",
    "brushes": "brush",
    "potatoes": "potato",
    "tomatoes": "tomato",
    "mangoes": "mango",
    "pieces": "piece",
    "slices": "slice",
    "sauces": "sauce",
    "juices": "juice",
    "spices": "spice",
    "cookies": "cookie",
    "pies": "pie",
    "ties": "tie",
}
#: Words that end in "s" in the singular (or are the same in both numbers).
_ALREADY_SINGULAR = frozenset(
    {"glass", "grass", "bass", "swiss", "hummus", "couscous", "asparagus", "molasses", "series", "species"}
    | {"chips", "shears", "tongs", "oats", "greens", "noodles", "this", "is", "was", "has", "its", "gas", "plus"}
    | {"us", "bus", "citrus", "octopus", "cactus", "lens", "news", "yes", "less", "process", "press"}
)


@lru_cache(maxsize=65536)
def singular(word: str) -> str:
    """The singular of one lowercase English noun, by rule: 'breasts' -> 'breast', 'berries' -> 'berry'.

    Good enough to put a task's 'onions' and a scene's 'onion' on one key; it is never shown to a reader."""
    if len(word) < 4 or word in _ALREADY_SINGULAR or word.endswith(("ss", "us", "is", "'s")):
        return word
    if word in _IRREGULAR_SINGULARS:
        return _IRREGULAR_SINGULARS[word]
    if word.endswith("ies"):
        return word[:-3] + "y"
    if word.endswith(("ches", "shes", "xes", "sses", "zes")):
        return word[:-2]
    if word.endswith("oes"):
        return word[:-2]
    if word.endswith("s"):
        return word[:-1]
    return word
