"""Finding named things in task text: catalog objects, group nouns, kitchen words and fixtures.

Text is split into words, each word put in the singular (``textnorm.singular``), and matched against a
dictionary of 1- to 5-word names, longest first, so "oatmeal cookies" is one mention and not also "oatmeal",
and "chicken breasts" finds "chicken breast"; "baking soda" is one entry, so its "soda" is not a mention.
A dictionary of n-grams rather than one large regular expression because it costs the same however large the
catalog grows: about 0.1 ms an item. Beside the catalog, ``kitchen_words.yaml`` names food, kitchen items,
fixtures, products and categories the catalog has no group for, so imported items are grounded too.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import cache, cached_property, lru_cache
from importlib import resources

from ambiforge import yamlfile
from ambiforge.catalog import APPLIANCES, Catalog
from ambiforge.textnorm import singular

#: A word as the lexicon splits text; readers of positions in its words split the same way.
WORD = re.compile(r"[a-z0-9][a-z0-9'/-]*")
MAX_WORDS = 5
#: Texts whose scan a lexicon keeps, the most recently used: a build's plan steps and task frames repeat
#: within a few hundred items, and a fixed number keeps a process's memory flat however many items it reads.
SCAN_TEXTS = 8_192


def words(text: str) -> list[str]:
    return WORD.findall(text.lower())


@lru_cache(maxsize=65536)
def key_of(phrase: str) -> tuple[str, ...]:
    """The lookup key of a name: its words in the singular."""
    return tuple(singular(w) for w in words(phrase))


@dataclass(frozen=True)
class Mention:
    kind: str  # "object" (catalog object), "noun" (group noun, kitchen word), "fixture" (appliance, place, product)
    name: str  # catalog object name, group key, or the word
    text: str  # the words as they stand
    food: bool = False
    start: int = 0  # word positions in the text
    end: int = 0


@dataclass(frozen=True)
class Lexicon:
    entries: dict[tuple[str, ...], Mention]
    heads: frozenset[str]  # last words of every entry: a mention followed by one is a modifier ("glass bowl")
    cache: dict[str, tuple[list[str], list[Mention]]] = field(default_factory=dict, compare=False)
    #: first word -> the most words of an entry starting with it (a word starting none is looked up no further)
    longest: dict[str, int] = field(default_factory=dict, compare=False)

    def __post_init__(self) -> None:
        for key in self.entries:
            self.longest[key[0]] = max(self.longest.get(key[0], 0), len(key))

    @cached_property
    def fixtures(self) -> frozenset[tuple[str, ...]]:
        """Names of the kitchen's fixed places and appliances of more than one word ("kitchen table"): a word of
        one ('kitchen') is then not a thing of its own."""
        return frozenset(key for key, m in self.entries.items() if m.kind == "fixture" and len(key) > 1)

    def scan(self, text: str) -> tuple[list[str], list[Mention]]:
        """The singular words of ``text`` and the lexicon's mentions in it (``text`` as written), kept for
        the last ``SCAN_TEXTS`` texts used (a dict in use order: a hit moves to the end, the first is the
        least recently used)."""
        cache = self.cache
        cached = cache.pop(text, None)
        if cached is not None:
            cache[text] = cached
            return cached
        if len(cache) >= SCAN_TEXTS:
            del cache[next(iter(cache))]
        raw = words(text)
        toks = [singular(w) for w in raw]
        cache[text] = found = (toks, self._find(raw, toks))
        return found

    def find(self, text: str) -> list[Mention]:
        return self.scan(text)[1]

    def _find(self, raw: list[str], toks: list[str]) -> list[Mention]:
        found: list[Mention] = []
        longest = self.longest
        i = 0
        while i < len(toks):
            for n in range(min(longest.get(toks[i], 0), MAX_WORDS, len(toks) - i), 0, -1):
                entry = self.entries.get(tuple(toks[i : i + n]))
                if entry is not None:
                    found.append(Mention(entry.kind, entry.name, " ".join(raw[i : i + n]), entry.food, i, i + n))
                    i += n
                    break
            else:
                i += 1
        return found


@cache
def kitchen_words() -> dict[str, tuple[str, ...]]:
    text = resources.files("ambiforge.validation").joinpath("kitchen_words.yaml").read_text(encoding="utf-8")
    return {kind: tuple(ws) for kind, ws in yamlfile.load(text).items() if kind != "kinds"}


@cache
def kinds() -> dict[str, tuple[tuple[str, ...], ...]]:
    """Kind -> the keys of its members ("pasta" -> spaghetti, penne, ...), from ``kinds`` in kitchen_words.yaml."""
    text = resources.files("ambiforge.validation").joinpath("kitchen_words.yaml").read_text(encoding="utf-8")
    table = yamlfile.load(text).get("kinds", {})
    return {" ".join(key_of(k)): tuple(key_of(m) for m in ms) for k, ms in table.items()}


_CACHE: dict[str, Lexicon] = {}


def lexicon_for(catalog: Catalog) -> Lexicon:
    """The lexicon of a catalog, built once per catalog content (keyed by its sha256)."""
    if catalog.sha256 not in _CACHE:
        _CACHE[catalog.sha256] = _build(catalog)
    return _CACHE[catalog.sha256]


def _build(catalog: Catalog) -> Lexicon:
    entries: dict[tuple[str, ...], Mention] = {}

    def add(phrase: str, mention: Mention) -> None:
        key = key_of(phrase)
        if key and key not in entries:
            entries[key] = mention

    extra = kitchen_words()
    for name in (
        *APPLIANCES,
        *(a.name for a in catalog.appliances),
        *extra.get("fixture", ()),
        *extra.get("product", ()),
    ):
        add(name, Mention("fixture", name, name))
    for word in extra.get("category", ()):
        add(word, Mention("fixture", word, word))
    for obj in catalog.objects.values():
        add(obj.name, Mention("object", obj.name, obj.name, food=obj.kind == "food"))
    for group in catalog.groups.values():
        add(group.noun, Mention("noun", group.key, group.noun, food=group.kind == "food"))
    for kind in ("food", "item"):
        for word in extra.get(kind, ()):
            add(word, Mention("noun", word, word, food=kind == "food"))
    heads = frozenset(k[-1] for k in entries)
    return Lexicon(entries, heads)
