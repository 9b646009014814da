"""Misspelled words: a lower-case word that no dictionary here knows, one edit away from a word that is known
("kithen", "mocrowave", "ingridients", "thw"). Known are lemminflect's dictionary, English function and
number words, the measures, every word of the catalog and of ``kitchen_words.yaml`` (its ``words`` list holds
cooking words the dictionary lacks: "fridge", "sauté", "doneness") and every word of the item's own scene.
One edit (a letter dropped, added, changed or two swapped) keeps the finding certain: a word two edits from
anything known is more often a name ("tzatziki") than a typo. A word a broad English frequency list has seen in
use ("psi", "latkes", "absorber") is a word of other kitchens and trades, not a typo, however near it is to
another: see :func:`in_use`."""

from __future__ import annotations

import re
from collections.abc import Iterator
from functools import cache, lru_cache

from spellchecker import SpellChecker

from ambiforge.catalog import Catalog
from ambiforge.models import Item
from ambiforge.textnorm import singular
from ambiforge.validation.language import FUNCTION_WORDS, NUMBER_WORDS, classes, verb_lemmas
from ambiforge.validation.lexicon import kitchen_words, lexicon_for

_LETTERS = "abcdefghijklmnopqrstuvwxyz"
#: A lower-case word standing alone: not part of a name with digits, an apostrophe or a hyphen.
_WORD = re.compile(r"(?<![\w'’-])[a-z]{3,}(?![\w'’-])")


@cache
def _extra_words() -> frozenset[str]:
    table = kitchen_words()
    return frozenset(w for phrase in (p for ws in table.values() for p in ws) for w in phrase.lower().split())


_KNOWN: dict[tuple[str, tuple[str, ...]], frozenset[str]] = {}


def _known_set(catalog: Catalog, units: tuple[str, ...]) -> frozenset[str]:
    """Known words beside the dictionary's, built once per catalog content (its sha256) and measures."""
    key = (catalog.sha256, units)
    if key not in _KNOWN:
        catalog_words = {w for entry in lexicon_for(catalog).entries for w in entry}
        unit_words = {w for u in units for w in u.lower().split()}
        _KNOWN[key] = frozenset(catalog_words | unit_words) | _extra_words() | FUNCTION_WORDS | NUMBER_WORDS
    return _KNOWN[key]


def _edits(word: str) -> set[str]:
    splits = [(word[:i], word[i:]) for i in range(len(word) + 1)]
    return (
        {a + b[1:] for a, b in splits if b}
        | {a + b[1] + b[0] + b[2:] for a, b in splits if len(b) > 1}
        | {a + c + b[1:] for a, b in splits if b for c in _LETTERS}
        | {a + c + b for a, b in splits for c in _LETTERS}
    )


def misspelled_word(
    text: str,
    catalog: Catalog,
    units: tuple[str, ...],
    scene_words: frozenset[str],
    row_words: frozenset[str] = frozenset(),
) -> tuple[str, str] | None:
    """The first misspelled word of ``text`` and the known word it is one edit from, else None. The scene counts
    as whole words: a word cut short ("fridg" of the scene's fridge) is the start of a scene word, not the word,
    so the scene does not excuse it. The end of a scene word is (the "burger" of the hamburger buns): names are
    compounds whose last part is a word of its own. The row's own words (see :func:`row_vocabulary`) excuse only
    themselves and their plurals: they are no names."""
    key = (catalog.sha256, units)
    for word in _unknown_words(text, _known_set(catalog, units), scene_words, row_words):
        near = _nearest(word, key)
        if near is not None:
            return word, near
    return None


#: Short words a hurried edit runs into their neighbour ("nutson" of "nuts on", "thechosen" of "the chosen").
_JOINERS = frozenset({"the", "an", "and", "of", "on", "in", "to", "with", "for", "at", "from", "or", "into", "onto"})


def run_together(
    text: str,
    catalog: Catalog,
    units: tuple[str, ...],
    scene_words: frozenset[str],
    row_words: frozenset[str] = frozenset(),
) -> tuple[str, str] | None:
    """The first word of ``text`` that no dictionary here knows and that is a known word of three or more
    letters run into one of the short words above ("nutson", "thechosen"), with the two words apart. A
    compound of two content words ("placemat", "teabag") is a name and is left alone."""
    known = _known_set(catalog, units)
    words = scene_words | row_words
    for word in _unknown_words(text, known, scene_words, row_words):
        if len(word) < 5:
            continue
        for i in range(2, len(word) - 1):
            head, tail = word[:i], word[i:]
            if (head in _JOINERS and len(tail) >= 3 and (_is_known(tail, known) or tail in words)) or (
                tail in _JOINERS and len(head) >= 3 and (_is_known(head, known) or head in words)
            ):
                return word, f"{head} {tail}"
    return None


def closed_compound(word: str, catalog: Catalog, units: tuple[str, ...]) -> bool:
    """Two known nouns written as one ("limescale", "stovetop"): English closes noun compounds up, and such a word
    is no typo even when it is one edit from another word ("timescale"). Each part has four letters or more and
    is a noun, so a word cut at its start ("ablespoons": "able" and "spoons") is no compound. A word one edit
    from a kitchen word ("sandwitch": sand and witch, or the sandwich) is that word mistyped: the kitchen's word
    is what a kitchen text means."""
    known = _known_set(catalog, units)
    if any(e in known for e in _edits(word)):
        return False
    return any(
        all(_is_known(part, known) and "NOUN" in classes(part) for part in (word[:i], word[i:]))
        for i in range(4, len(word) - 3)
    )


def _unknown_words(
    text: str, known: frozenset[str], scene_words: frozenset[str], row_words: frozenset[str] = frozenset()
) -> Iterator[str]:
    """The words of ``text`` that neither a dictionary here nor the scene knows: a scene word, its singular,
    or the end of one (the "burger" of the hamburger buns) is known; its start ("fridg") is not. A row word
    or its singular is known, not its end ("tir" of "stir"). A wrong "-os" plural ("tomatos") is unknown
    whatever the scene says: the scene's "tomato" has the plural "tomatoes"."""
    for word in _WORD.findall(text):
        if _wrong_o_plural(word, known) or not (
            _is_known(word, known)
            or word in row_words
            or singular(word) in row_words
            or singular(word) in scene_words
            or any(s.endswith(word) for s in scene_words)
            or in_use(word)
        ):
            yield word


#: The count pyspellchecker's English list gives a word it holds from a dictionary but never saw in its corpus:
#: such words ("plater") are as often a typo's spelling as a word, so only counts above it say "in use".
_UNSEEN_COUNT = 50


@cache
def _usage() -> SpellChecker:
    """pyspellchecker's English word frequency list (built from subtitles, filtered against dictionaries): unlike
    a web frequency list it leaves common misspellings ("untill", "tomatos") out. Loaded once per process."""
    return SpellChecker(language="en", distance=1)


def in_use(word: str) -> bool:
    """A lower-case word that English text uses, by a broad frequency list: words of other cuisines, trades and
    measures ("latkes", "psi", "absorber", "yum") that no kitchen list here holds. A word formed with "un-" from
    a participle the list holds ("untasted" of "tasted") is in use as well: English makes such words freely. A
    word that only ends in "ed" ("seed", "need", "red") is no participle and makes no such word ("unseed")."""
    counts = _usage().word_frequency
    if counts[word] > _UNSEEN_COUNT:
        return True
    if not (word.startswith("un") and word.endswith("ed")):
        return False
    rest = word[2:]
    return counts[rest] > _UNSEEN_COUNT and any(verb != rest for verb in verb_lemmas(rest))


#: The cells of a row that its writer writes apart: the two tasks are one draft, the two plans one (a copy and
#: its edit), and the question, the answer and the variants each their own.
_CELL_GROUPS = (
    ("unambiguous_direct", "ambiguous_task"),
    ("question",),
    ("answer",),
    ("plan_for_clear_task", "plan_for_amb_task"),
    ("variants",),
)


def row_vocabulary(item: Item) -> frozenset[str]:
    """The words a row writes in three or more of its groups of cells written apart (a task, the question, the
    answer, a plan, the variants): "lassi" in the task, the question and the plan is the row's word for its
    dish. A typo is a slip of one place; one copied from a task to its plan is two groups and stays a typo."""
    seen: dict[str, int] = {}
    for group in _CELL_GROUPS:
        words = {w for f in group for w in _WORD.findall(_cell(item, f))}
        for word in words:
            seen[word] = seen.get(word, 0) + 1
    return frozenset(w for w, n in seen.items() if n >= 3)


def _cell(item: Item, field: str) -> str:
    value = getattr(item, field)
    return "\n".join(value) if isinstance(value, list) else str(value)


def _is_known(word: str, known: frozenset[str]) -> bool:
    if _wrong_o_plural(word, known):
        return False
    return word in known or singular(word) in known or bool(classes(word)) or _ie_plural(word) in known


def _wrong_o_plural(word: str, known: frozenset[str]) -> bool:
    """A plural in "-os" of a word whose plural is "-oes" ("tomatos" of "tomatoes"), which the rule of a dropped
    "-s" reads as the singular's plural; a word in "-os" with no "-oes" plural ("avocados", "tacos") is right."""
    if not word.endswith("os") or word in known or classes(word):
        return False
    oes = word[:-1] + "es"
    return oes in known or (singular(oes) in known and bool(classes(oes)))


def _ie_plural(word: str) -> str:
    """The singular of a plural of a word ending in "-ie" ("smoothies" of "smoothie", "veggies"), which the
    rule of "-ies" to "-y" misses; the word itself for any other word."""
    return word[:-1] if word.endswith("ies") and len(word) > 4 else word


@lru_cache(maxsize=16384)
def _nearest(word: str, key: tuple[str, tuple[str, ...]]) -> str | None:
    """The known word one edit from ``word`` that is likeliest meant: a kitchen word, then one keeping the
    first and last letters (``key``: the known set's, see :func:`_known_set`). Unknown words repeat across
    items (a scene's names), so each is looked at once."""
    known = _KNOWN[key]
    edits = [e for e in _edits(word) if len(e) > 1]
    # the kitchen words are a set lookup, so the dictionary is asked only when none is one edit away
    near = [e for e in edits if e in known] or [e for e in edits if _is_known(e, known)]
    if not near:
        return None
    return min(near, key=lambda e: (e not in known, e[0] != word[0], e[-1] != word[-1], e))


#: "make a slushie", "Make mango lassi for four": the words after "make" up to the first function word.
_MADE = re.compile(r"\bmak(?:e|es|ing)\s+((?:[a-z]+\s+){0,3}[a-z]+)", re.I)


#: "... in the glass bowl for ganache.", "for tomorrow's smoothies": the dish a task is done for, ending its clause.
_MADE_FOR = re.compile(
    r"\bfor\s+(?:(?:a|an|the|some)\s+)?(?:[a-z]+'s\s+)?([a-z]+(?:\s+[a-z]+)?)\s*(?:[.,;!]|$)", re.I | re.M
)


def made_dish_words(task: str) -> frozenset[str]:
    """The words that name the dish a task makes or is done for ("slushie" of "to make a slushie", "lassi" of
    "Make mango lassi for four", "ganache" of "pour it over the chocolate for ganache."). Dish names are an
    open vocabulary of loanwords and coinages no dictionary here holds, while a hurried writer's typo rarely
    falls on the one word the whole task is about."""
    out: set[str] = {w for m in _MADE_FOR.finditer(task) for w in m.group(1).lower().split()}
    if "mak" not in task.lower():
        return frozenset(out)
    for m in _MADE.finditer(task):
        ws = m.group(1).lower().split()
        while ws and ws[0] in _ARTICLES:
            ws = ws[1:]
        for word in ws:
            if word in FUNCTION_WORDS:
                break
            out.add(word)
    return frozenset(out)


_ARTICLES = frozenset({"a", "an", "the", "some"})
