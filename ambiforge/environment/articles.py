"""English articles for object names: 'a glass mug', 'an apple', 'honey', 'oven mitts'.

The rule is by sound, approximated by spelling plus the usual exceptions (a unit, a one-off, an hour);
the catalog can override an odd word with ``article``.
"""

from __future__ import annotations

from ambiforge.catalog import CatalogObject

_VOWELS = "aeiou"
# Spelled with a vowel, said with a consonant: "a unit", "a European", "a one-pot".
_CONSONANT_SOUND = ("uni", "use", "usu", "ute", "uku", "eu", "ewe", "one", "once", "ufo")
# Spelled with a consonant, said with a vowel: "an hour", "an heirloom".
_VOWEL_SOUND = ("hour", "honest", "honou", "honor", "heir")


def indefinite(word: str) -> str:
    """'a' or 'an' for the word that follows."""
    w = word.lower()
    if w.startswith(_VOWEL_SOUND):
        return "an"
    if w.startswith(_CONSONANT_SOUND):
        return "a"
    return "an" if w[:1] in _VOWELS else "a"


def with_article(obj: CatalogObject) -> str:
    """The object as it stands in a list of the scene: no article for mass and plural nouns."""
    if obj.mass or obj.plural:
        return obj.name
    return f"{obj.article or indefinite(obj.name)} {obj.name}"
