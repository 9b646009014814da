"""Finding catalog objects, their plurals and group nouns in task text.

Text is split into words and matched against a dictionary of 1- to 5-word names, longest first, so
"oatmeal cookies" is one mention and not also "oatmeal". A dictionary of n-grams rather than one large
regular expression because it costs the same however large the catalog grows: about 0.1 ms an item.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from ambiforge.catalog import APPLIANCES, Catalog
from ambiforge.generation.offline.phrases import plural

_WORD = re.compile(r"[a-z0-9][a-z0-9'-]*")
MAX_WORDS = 5


def words(text: str) -> list[str]:
    return _WORD.findall(text.lower())


@dataclass(frozen=True)
class Mention:
    kind: str  # "object" (a catalog object), "noun" (a group's generic noun) or "appliance"
    name: str  # catalog object name, group key, or appliance name
    text: str  # the words as they stand


@dataclass(frozen=True)
class Lexicon:
    entries: dict[tuple[str, ...], Mention]
    cache: dict[str, list[Mention]] = field(default_factory=dict, compare=False)

    def find(self, text: str) -> list[Mention]:
        """Mentions in ``text``, cached: plan steps and task frames repeat across thousands of items."""
        cached = self.cache.get(text)
        if cached is not None:
            return cached
        if len(self.cache) > 200_000:
            self.cache.clear()
        self.cache[text] = found = self._find(text)
        return found

    def _find(self, text: str) -> list[Mention]:
        toks = words(text)
        found: list[Mention] = []
        i = 0
        while i < len(toks):
            for n in range(min(MAX_WORDS, len(toks) - i), 0, -1):
                mention = self.entries.get(tuple(toks[i : i + n]))
                if mention is not None:
                    found.append(mention)
                    i += n
                    break
            else:
                i += 1
        return found


_CACHE: dict[str, Lexicon] = {}


def lexicon_for(catalog: Catalog) -> Lexicon:
    """The lexicon of a catalog, built once per catalog content (keyed by its sha256)."""
    if catalog.sha256 not in _CACHE:
        _CACHE[catalog.sha256] = _build(catalog)
    return _CACHE[catalog.sha256]


def _build(catalog: Catalog) -> Lexicon:
    entries: dict[tuple[str, ...], Mention] = {}

    def add(phrase: str, mention: Mention) -> None:
        key = tuple(words(phrase))
        if key and key not in entries:
            entries[key] = mention

    for name in APPLIANCES:
        add(name, Mention("appliance", name, name))
        add(plural(name), Mention("appliance", name, plural(name)))
    for obj in catalog.objects.values():
        add(obj.name, Mention("object", obj.name, obj.name))
        if not obj.plural and not obj.mass:
            add(plural(obj.name), Mention("object", obj.name, plural(obj.name)))
    for group in catalog.groups.values():
        add(group.noun, Mention("noun", group.key, group.noun))
        add(plural(group.noun), Mention("noun", group.key, plural(group.noun)))
    return Lexicon(entries)
