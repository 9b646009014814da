"""How the offline generator refers to things: definite, ambiguous and paraphrased references, a/an,
prepositions, plurals, and the politeness styles that frame a task ("Robot, please ...").

The styles and the phrase table a paraphrase names objects with ("the loaf of rye bread", "that glass mug")
are data, ``data/phrases.yaml``: forms per kind and attribute, overridden per catalog group. So are the
named word lists (``words``) that styles, frames and joiners draw from: ``{address}`` in a style is one of
the ``address`` list, drawn per task (:func:`expand`). A phrase made of parts drawn independently reads as
many different sentences, where a fixed list of sentences would show through after a few hundred tasks.
"""

from __future__ import annotations

import random
import re
import string
from functools import lru_cache
from itertools import chain
from pathlib import Path
from typing import Any

import yaml

from ambiforge import yamlfile
from ambiforge.catalog import CatalogObject, Group
from ambiforge.environment.articles import indefinite
from ambiforge.errors import ConfigError
from ambiforge.textnorm import singular

_IRREGULAR_PLURALS = {"knife": "knives", "glass": "glasses", "dish": "dishes", "box": "boxes"}
_ON_NOUNS = {"plate", "saucer", "serving tray", "cutting board", "baking tray"}
DATA_FILE = Path(__file__).parent / "data" / "phrases.yaml"


@lru_cache(maxsize=1)
def _data() -> dict[str, Any]:
    """The phrase data (styles, materials, reference forms), checked once: a broken file is a ConfigError."""
    try:
        data = yamlfile.load(DATA_FILE.read_text(encoding="utf-8"))
    except (OSError, yaml.YAMLError) as exc:
        raise ConfigError(f"{DATA_FILE}: {str(exc).splitlines()[0]}") from None
    for key in ("styles", "indirect_styles", "materials", "references", "groups", "words"):
        if not isinstance(data, dict) or not isinstance(data.get(key), (dict, list)):
            raise ConfigError(f"{DATA_FILE}: {key}: missing or not a list/mapping")
    for name, options in data["words"].items():
        if not isinstance(options, list) or not options or not all(isinstance(o, str) for o in options):
            raise ConfigError(f"{DATA_FILE}: words.{name}: expected a non-empty list of strings")
        if any("{" in o for o in options):
            raise ConfigError(f"{DATA_FILE}: words.{name}: a word list's entries take no slots")
    for key in ("styles", "indirect_styles"):
        for i, style in enumerate(data[key]):
            if not (isinstance(style, list) and len(style) == 2 and all(isinstance(x, str) for x in style)):
                raise ConfigError(f"{DATA_FILE}: {key}[{i}]: expected [prefix, ending]")
            unknown = named_slots(style[0] + style[1]) - set(data["words"])
            if unknown:
                raise ConfigError(f"{DATA_FILE}: {key}[{i}]: unknown word list {{{sorted(unknown)[0]}}}")
    moments = data.get("moments") or []
    for phrase, tags in (data.get("said_at") or {}).items():
        if not isinstance(tags, list) or not tags or any(t not in moments for t in tags):
            raise ConfigError(f"{DATA_FILE}: said_at.{phrase}: expected a list of moments ({', '.join(moments)})")
    for i, pair in enumerate(data.get("incompatible") or []):
        if not (isinstance(pair, list) and len(pair) == 2 and all(t in moments for t in pair)):
            raise ConfigError(f"{DATA_FILE}: incompatible[{i}]: expected two moments")
    names = {"name", "noun", "modifier", "material"}
    forms = [f for kind in data["references"].values() for fs in kind.values() for f in fs]
    forms += [f for group in data["groups"].values() for fs in group.values() for f in fs]
    for form in forms:
        unknown = {n for _, n, _, _ in string.Formatter().parse(form) if n is not None} - names
        if unknown:
            raise ConfigError(f"{DATA_FILE}: {form!r}: unknown slot {{{sorted(unknown)[0]}}}")
    return data


def styles(indirect: bool = False) -> tuple[tuple[str, str], ...]:
    """(prefix, ending) pairs a task is framed in; ``indirect``: the hedged forms of an indirect request
    ("I was wondering if you could ..."). Prefixes may name word lists (:func:`expand`)."""
    return tuple((prefix, end) for prefix, end in _data()["indirect_styles" if indirect else "styles"])


_NAMED = re.compile(r"\{([a-z_]+)\}")


def named_slots(text: str) -> set[str]:
    """The word lists a phrase names (``{address}``); positional slots (``{0}``) are not names."""
    return set(_NAMED.findall(text))


def word_lists() -> dict[str, list[str]]:
    return _data()["words"]


def moments() -> tuple[str, ...]:
    """The moments of the day a task can be said at (the discourse frame's time)."""
    return tuple(_data().get("moments") or ())


def said_at() -> dict[str, tuple[str, ...]]:
    """Phrase -> the moments it can be said at; a phrase not listed fits any moment."""
    return {k: tuple(v) for k, v in (_data().get("said_at") or {}).items()}


def incompatible() -> tuple[tuple[str, str], ...]:
    return tuple((a, b) for a, b in _data().get("incompatible") or ())


def fits(phrase: str, moment: str | None) -> bool:
    """Whether ``phrase`` can be said at ``moment`` (None: any phrase)."""
    if moment is None:
        return True
    tags = _said_at_lower().get(phrase.lower())
    return tags is None or moment in tags


@lru_cache(maxsize=1)
def _said_at_lower() -> dict[str, tuple[str, ...]]:
    return {k.lower(): v for k, v in said_at().items()}


def agreeing(options: tuple[str, ...] | list[str], moment: str | None) -> list[str]:
    """The options that can be said at ``moment`` (all of them when none can)."""
    kept = [o for o in options if fits(o, moment)]
    return kept or list(options)


def expand(rng: random.Random, text: str, moment: str | None = None) -> str:
    """``text`` with each ``{name}`` replaced by an entry of the word list ``name`` drawn with ``rng``; with
    a ``moment``, only entries that can be said then (``said_at``)."""
    if "{" not in text:
        return text
    if moment is None:
        lists = word_lists()
        return _NAMED.sub(lambda m: pick(rng, lists[m.group(1)]), text)
    return _NAMED.sub(lambda m: pick(rng, _list_at(m.group(1), moment)), text)


@lru_cache(maxsize=512)
def _list_at(name: str, moment: str) -> tuple[str, ...]:
    """The word list ``name``'s entries that can be said at ``moment`` (worked out once per list and moment)."""
    return tuple(agreeing(word_lists()[name], moment))


def greets(text: str) -> bool:
    """Whether ``text`` starts with a greeting of the ``greeting`` word list."""
    lowered = text.lower()
    return any(lowered.startswith(g.lower()) for g in word_lists().get("greeting", ()))


def plural(noun: str) -> str:
    """The plural of a group noun; a noun already plural ("nuts") stays as it is, not "nutses"."""
    head, _, last = noun.rpartition(" ")
    if last in _IRREGULAR_PLURALS:
        p = _IRREGULAR_PLURALS[last]
    elif last.endswith("s") and singular(last) != last:
        p = last
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


def reference_forms(obj: CatalogObject) -> list[str]:
    """The phrase-table forms that can name ``obj`` in a paraphrase (its group's own, else its kind's)."""
    data = _data()
    material = data["materials"].get(obj.modifier) if obj.kind == "kitchen_item" else None
    if obj.kind == "kitchen_item":
        attribute = "material" if material else "other"
    else:
        attribute = "plural" if obj.plural else "single"
    own = data["groups"].get(obj.group, {}).get(attribute)
    return list(own or data["references"].get(obj.kind, {}).get(attribute) or ["the {name}"])


def indirect(obj: CatalogObject, rng: random.Random | None = None) -> str:
    """How a paraphrase names exactly this object ("the loaf of rye bread", "that glass mug"): a form of
    the phrase table drawn with ``rng``, the first form without one."""
    forms = reference_forms(obj)
    form = rng.choice(forms) if rng is not None else forms[0]
    material = _data()["materials"].get(obj.modifier, obj.modifier)
    return form.format(name=obj.name, noun=obj.noun, modifier=obj.modifier, material=material)


def apply_style(sentence: str, style: tuple[str, str]) -> str:
    """Frame an imperative sentence ('Pour the milk into the mug.') in a politeness style."""
    prefix, end = style
    body = sentence.rstrip(".?! ")
    if prefix:
        body = body[0].lower() + body[1:]
    text = prefix + body + end
    return capitalize(text)


def capitalize(text: str) -> str:
    return text[:1].upper() + text[1:]


_SENTENCE_START = re.compile(r"([.!?] +)([a-z])")
_AFTER_COMMA = re.compile(r"(, )(Can|Could|Would|Will|Please|Do|Just|Kindly|Mind|Is|Any|How|Maybe|Perhaps)\b")


def sentence_case(text: str) -> str:
    """Capitals where sentences start and only there, once styles, joiners and frames are put together:
    "Legend, thanks. Wave at me ..." (not "thanks. wave"), "Excuse me, robot, can you ..." (not ", Can")."""
    text = _SENTENCE_START.sub(lambda m: m.group(1) + m.group(2).upper(), capitalize(text))
    return _AFTER_COMMA.sub(lambda m: m.group(1) + m.group(2).lower(), text)


def join_or(names: list[str]) -> str:
    refs = [f"the {n}" for n in names]
    return refs[0] if len(refs) == 1 else ", ".join(refs[:-1]) + " or " + refs[-1]


_WORD = re.compile(r"[a-z0-9][a-z0-9'-]*")


def words(text: str) -> list[str]:
    return _WORD.findall(text.lower())


def word_grams(text: str, longest: int = 6) -> frozenset[tuple[str, ...]]:
    """Every run of up to ``longest`` words of ``text``: one pass, then :func:`mentioned` is a set lookup
    (many phrases tested against one text, without a regular expression per phrase)."""
    toks = words(text)
    # zip of shifted lists makes each n-gram tuple in C, without a slice per gram
    shifted = (zip(*(toks[i:] for i in range(n)), strict=False) for n in range(1, longest + 1))
    return frozenset(chain.from_iterable(shifted))


def mentioned(grams: frozenset[tuple[str, ...]], phrase: str) -> bool:
    """Whole-word containment of ``phrase`` in the text ``grams`` was made from."""
    return _phrase_words(phrase) in grams


@lru_cache(maxsize=8192)
def _phrase_words(phrase: str) -> tuple[str, ...]:
    return tuple(words(phrase))


def mentions_any(text: str, phrases: list[str], longest: int = 6) -> bool:
    """Whether ``text`` mentions any of ``phrases`` as :func:`mentioned` reads them on its
    :func:`word_grams` (whole words, up to ``longest`` of them), for a few phrases against one text:
    scanning the words is cheaper than making every n-gram of the text."""
    toks = words(text)
    present = set(toks)
    for phrase in phrases:
        wanted = _phrase_words(phrase)
        if not wanted or len(wanted) > longest or not present.issuperset(wanted):
            continue
        n = len(wanted)
        if n == 1 or any(tuple(toks[i : i + n]) == wanted for i, t in enumerate(toks) if t == wanted[0]):
            return True
    return False


def mentions(text: str, phrase: str) -> bool:
    """Whole-word, case-insensitive containment (so 'glass' is not found in 'glasses')."""
    return re.search(rf"(?<![\w-]){re.escape(phrase.lower())}(?![\w-])", text.lower()) is not None


def pick(rng: random.Random, options: tuple[str, ...] | list[str]) -> str:
    """One of ``options``. ``rng.choice`` makes the very draw ``options[rng.randrange(len(options))]``
    made before (both take ``_randbelow(len(options))``, so seeded outputs stay byte for byte), with one
    Python call fewer; the generator's other draws of one item from a sequence use it too."""
    return rng.choice(options)
