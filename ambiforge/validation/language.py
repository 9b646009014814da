"""Words as words: lemmas, word classes and the open-class words of a phrase, for the rules that compare texts
written by different people (AmbiK's clear and ambiguous plans, its intent keywords and its shortlists).

Lemmas and word classes come from ``lemminflect`` (a dictionary of English lemmas and inflections with its
data inside the wheel: nothing is downloaded at run time, it loads in milliseconds and needs only numpy).
Chosen over spaCy, whose English pipelines are not on the package index (the PyPI mirrors of them are
unofficial), and over NLTK's WordNet, whose data is a separate download. lemminflect knows only open-class
words (nouns, verbs, adjectives, adverbs): a word it has no lemma for is a function word ("from", "until"),
a number ("three") or a misspelling, which is what the rules need to tell apart.
"""

from __future__ import annotations

import re
import threading
from functools import lru_cache

from ambiforge.textnorm import CARDINALS

_WORD = re.compile(r"[a-z0-9][a-z0-9'-]*")
#: Words that measure an amount: the cardinals (:data:`ambiforge.textnorm.CARDINALS`) and the rest.
NUMBER_WORDS = CARDINALS | frozenset(
    ["a", "an", "dozen", "quarter", "third", "few", "couple", "several", "some", "more", "less"]
)
#: English function words (prepositions, determiners, pronouns, conjunctions, auxiliaries): never a name.
FUNCTION_WORDS = frozenset(
    [
        "about",
        "above",
        "across",
        "after",
        "against",
        "along",
        "among",
        "around",
        "as",
        "at",
        "before",
        "behind",
        "below",
        "beneath",
        "beside",
        "between",
        "beyond",
        "by",
        "down",
        "during",
        "except",
        "for",
        "from",
        "in",
        "inside",
        "into",
        "like",
        "near",
        "of",
        "off",
        "on",
        "onto",
        "out",
        "outside",
        "over",
        "past",
        "since",
        "through",
        "throughout",
        "till",
        "to",
        "toward",
        "towards",
        "under",
        "underneath",
        "until",
        "unto",
        "up",
        "upon",
        "via",
        "with",
        "within",
        "without",
        "the",
        "this",
        "that",
        "these",
        "those",
        "my",
        "your",
        "his",
        "her",
        "its",
        "our",
        "their",
        "all",
        "any",
        "both",
        "each",
        "either",
        "every",
        "neither",
        "no",
        "none",
        "i",
        "you",
        "he",
        "she",
        "it",
        "we",
        "they",
        "me",
        "him",
        "us",
        "them",
        "myself",
        "yourself",
        "itself",
        "themselves",
        "what",
        "which",
        "who",
        "whom",
        "whose",
        "and",
        "but",
        "or",
        "nor",
        "so",
        "yet",
        "if",
        "then",
        "than",
        "because",
        "while",
        "when",
        "whenever",
        "where",
        "wherever",
        "whether",
        "though",
        "although",
        "unless",
        "once",
        "also",
        "just",
        "only",
        "very",
        "too",
        "not",
        "am",
        "is",
        "are",
        "was",
        "were",
        "be",
        "been",
        "being",
        "do",
        "does",
        "did",
        "have",
        "has",
        "had",
        "will",
        "would",
        "shall",
        "should",
        "can",
        "could",
        "may",
        "might",
        "must",
    ]
)
#: Open-class words that still say nothing about which object is meant.
VAGUE = frozenset(["thing", "something", "anything", "item", "one", "other", "another", "some", "kind", "type", "way"])


def words(text: str) -> list[str]:
    return _WORD.findall(text.lower())


_LOADING = threading.Lock()
_loaded = False


def _all_lemmas(word: str) -> dict[str, tuple[str, ...]]:
    """lemminflect reads its dictionary on first use without a lock: the generator's threads, checking their
    first candidates together, would each read and decompress it. The first call here reads it once.
    Imported here, at first use: with numpy it is 0.12 s of CPU that an LLM build's start-up need not wait
    for (its rules check the first candidate once replies are in)."""
    from lemminflect import getAllLemmas

    global _loaded
    if not _loaded:
        with _LOADING:
            if not _loaded:
                getAllLemmas("a")
                _loaded = True
    return getAllLemmas(word)  # type: ignore[no-any-return]


@lru_cache(maxsize=65536)
def classes(word: str) -> frozenset[str]:
    """The word classes lemminflect knows for ``word`` (NOUN, VERB, ADJ, ADV, ...); empty for function words."""
    return frozenset(_all_lemmas(word.lower()))


@lru_cache(maxsize=65536)
def lemma(word: str) -> str:
    """The lemma of a word, the noun reading first ('knives' -> 'knife', 'mushrooms' -> 'mushroom')."""
    found = _all_lemmas(word.lower())
    for upos in ("NOUN", "PROPN", "ADJ", "VERB", "ADV"):
        if upos in found:
            return found[upos][0]
    return word.lower()


def is_number(word: str) -> bool:
    return word in NUMBER_WORDS or any(c.isdigit() for c in word) or word in ("°f", "°c", "f", "c")


@lru_cache(maxsize=65536)
def is_content(word: str) -> bool:
    """A word that is not a function word or a number: what can name an object or its attribute. Words
    lemminflect does not know ('basmati', 'shishito') are names."""
    return not is_number(word) and word not in FUNCTION_WORDS and (bool(classes(word)) or len(word) > 2)


def is_verb_only(word: str) -> bool:
    """A word English uses only as a verb (or adverb): 'heat' is a noun too, 'stir' is a verb only."""
    found = classes(word)
    return bool(found) and not (found & {"NOUN", "PROPN", "ADJ"})


def is_nominal(word: str) -> bool:
    """A noun or adjective, or a word lemminflect does not know (a name: 'basmati')."""
    found = classes(word)
    return not found or bool(found & {"NOUN", "PROPN", "ADJ"})


@lru_cache(maxsize=16384)
def content_lemmas(text: str) -> frozenset[str]:
    return frozenset(lemma(w) for w in words(text) if is_content(w))


def names_thing(phrase: str) -> bool:
    """A phrase that can name an object or an attribute of one: its words are open-class, at least one is a
    noun or adjective, none is a number, and it is not only vague words ('something')."""
    ws = words(phrase)
    return (
        bool(ws)
        and all(is_content(w) for w in ws)
        and any(is_nominal(w) for w in ws)
        and not all(w in VAGUE for w in ws)
    )


def mentions(text: str, phrase: str) -> bool:
    """``text`` names ``phrase`` up to inflection: every lemma of the phrase, in order, as consecutive words
    ('mushrooms' in 'a mushroom stir-fry', 'bell peppers' in 'the bell pepper')."""
    return occurrences(text, phrase) > 0


def similar_steps(a: str, b: str, threshold: float = 0.5) -> bool:
    """Two plan steps that say the same with other words: they share at least ``threshold`` of the smaller
    step's content lemmas ('Whisk the eggs in a bowl' / 'Mix the eggs in a bowl'), or both have none."""
    la, lb = content_lemmas(a), content_lemmas(b)
    if not la or not lb:
        return la == lb
    return len(la & lb) / min(len(la), len(lb)) >= threshold


def positions(text: str, phrase: str) -> list[tuple[int, int]]:
    """Where ``text`` names ``phrase`` up to inflection: (start, end) word positions in ``words(text)``."""
    want = [lemma(w) for w in words(phrase)]
    have = [lemma(w) for w in words(text)]
    n = len(want)
    return [(i, i + n) for i in range(len(have) - n + 1) if n and have[i : i + n] == want]


def occurrences(text: str, phrase: str) -> int:
    """How often ``text`` names ``phrase`` up to inflection (see :func:`mentions`)."""
    return len(positions(text, phrase))


@lru_cache(maxsize=65536)
def verb_lemmas(word: str) -> tuple[str, ...]:
    """The verbs ``word`` may be a form of ('served' -> serve, 'transferred' -> transfer); empty if none."""
    return tuple(_all_lemmas(word.lower()).get("VERB", ()))
