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
from collections.abc import Iterable
from dataclasses import dataclass
from functools import lru_cache
from itertools import chain, product
from pathlib import Path
from typing import Any, get_args

import yaml

from ambiforge import yamlfile
from ambiforge.catalog import Catalog, CatalogObject, Group
from ambiforge.environment.articles import indefinite
from ambiforge.errors import ConfigError
from ambiforge.models import Frame
from ambiforge.textnorm import singular

_IRREGULAR_PLURALS = {
    "knife": "knives", "glass": "glasses", "dish": "dishes", "box": "boxes", "tomato": "tomatoes", "potato": "potatoes"
}  # fmt: skip
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
    _check_frame(data)
    pointing = data.get("pointing")
    if not (isinstance(pointing, dict) and set(pointing) == {"words", "places"} and all(pointing.values())):
        raise ConfigError(f"{DATA_FILE}: pointing: expected non-empty 'words' and 'places'")
    for i, rule in enumerate(data.get("presuppositions") or []):
        if not (isinstance(rule, dict) and set(rule) == {"words", "groups"} and rule["words"] and rule["groups"]):
            raise ConfigError(f"{DATA_FILE}: presuppositions[{i}]: expected words and groups")
    names = {"name", "noun", "modifier", "material"}
    forms = [f for kind in data["references"].values() for fs in kind.values() for f in fs]
    forms += [f for group in data["groups"].values() for fs in group.values() for f in fs]
    for form in forms:
        unknown = {n for _, n, _, _ in string.Formatter().parse(form) if n is not None} - names
        if unknown:
            raise ConfigError(f"{DATA_FILE}: {form!r}: unknown slot {{{sorted(unknown)[0]}}}")
    return data


def pointing() -> tuple[tuple[str, ...], frozenset[str]]:
    """The demonstratives, and the places (ids) where an object is at hand, so can be pointed at."""
    data = _data()["pointing"]
    return tuple(data["words"]), frozenset(data["places"])


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


def _check_frame(data: dict[str, Any]) -> None:
    """The frame's dimensions are the item model's (:class:`ambiforge.models.Frame`), and every tag names one
    of their values."""
    dims = data.get("frame")
    model = {name: get_args(info.annotation) for name, info in Frame.model_fields.items()}
    if not isinstance(dims, dict) or {k: tuple(v or ()) for k, v in dims.items()} != model:
        raise ConfigError(f"{DATA_FILE}: frame: expected the dimensions and values of the item's frame: {model}")
    known = {f"{d}:{v}" for d, values in model.items() for v in values}
    for phrase, tags in (data.get("tags") or {}).items():
        if not isinstance(tags, list) or not tags or any(t not in known for t in tags):
            raise ConfigError(f"{DATA_FILE}: tags.{phrase}: expected a list of frame tags (dimension:value)")
    for i, pair in enumerate(data.get("incompatible") or []):
        if not (isinstance(pair, list) and len(pair) == 2 and all(t in known for t in pair)):
            raise ConfigError(f"{DATA_FILE}: incompatible[{i}]: expected two frame tags")


def dimensions() -> dict[str, tuple[str, ...]]:
    """The frame's dimensions and their values (time, occasion, speaker, needed)."""
    return {k: tuple(v) for k, v in _data()["frame"].items()}


@lru_cache(maxsize=1)
def _tags_lower() -> dict[str, dict[str, frozenset[str]]]:
    """Phrase (lower case) -> dimension -> the values it can be said with."""
    out: dict[str, dict[str, frozenset[str]]] = {}
    for phrase, tags in (_data().get("tags") or {}).items():
        grouped: dict[str, set[str]] = {}
        for tag in tags:
            dim, _, value = tag.partition(":")
            grouped.setdefault(dim, set()).add(value)
        out[phrase.lower()] = {d: frozenset(v) for d, v in grouped.items()}
    return out


def tags_of(phrase: str) -> dict[str, frozenset[str]]:
    """The frame values ``phrase`` can be said with, per dimension it names (empty: any frame)."""
    return _tags_lower().get(phrase.lower(), {})


@lru_cache(maxsize=1)
def incompatible() -> frozenset[frozenset[str]]:
    """Tag pairs no item carries together: the listed ones and any two values of one dimension."""
    pairs = {frozenset(p) for p in _data().get("incompatible") or ()}
    for dim, values in dimensions().items():
        pairs |= {frozenset((f"{dim}:{a}", f"{dim}:{b}")) for a in values for b in values if a != b}
    return frozenset(pairs)


def clashes(tags: tuple[str, ...] | list[str]) -> list[tuple[str, str]]:
    """The pairs of ``tags`` that the incompatible list forbids together."""
    bad = incompatible()
    return [(a, b) for i, a in enumerate(tags) for b in tags[i + 1 :] if frozenset((a, b)) in bad]


def fits(phrase: str, frame: Frame | None) -> bool:
    """Whether ``phrase`` can be said in ``frame`` (None: any phrase): for every dimension the phrase names,
    one of its values is compatible with every tag of the frame."""
    if frame is None:
        return True
    grouped = tags_of(phrase)
    if not grouped:
        return True
    return _fits(grouped, frame.tags())


@lru_cache(maxsize=1)
def _clashing() -> dict[str, frozenset[str]]:
    """Tag -> the tags it may not be said with (:func:`incompatible`, read per tag)."""
    out: dict[str, set[str]] = {}
    for pair in incompatible():
        a, b = pair if len(pair) == 2 else (*pair, *pair)  # a tag listed with itself clashes with itself
        out.setdefault(a, set()).add(b)
        out.setdefault(b, set()).add(a)
    return {tag: frozenset(others) for tag, others in out.items()}


def _fits(grouped: dict[str, frozenset[str]], frame_tags: tuple[str, ...]) -> bool:
    clashing, none = _clashing(), frozenset[str]()
    return all(
        any(clashing.get(f"{dim}:{v}", none).isdisjoint(frame_tags) for v in values) for dim, values in grouped.items()
    )


def fits_tags(phrase: str, frame_tags: tuple[str, ...]) -> bool:
    """:func:`fits` for a frame given as its tags (a caller testing many phrases against one frame)."""
    grouped = tags_of(phrase)
    return not grouped or _fits(grouped, frame_tags)


def agreeing(options: tuple[str, ...] | list[str], frame: Frame | None) -> list[str]:
    """The options that can be said in ``frame`` (all of them when none can)."""
    return agreeing_tags(options, frame.tags() if frame is not None else None)


def agreeing_tags(options: tuple[str, ...] | list[str], frame_tags: tuple[str, ...] | None) -> list[str]:
    """:func:`agreeing` for a frame given as its tags (None: no frame)."""
    if frame_tags is None:
        return list(options)
    kept = [o for o in options if fits_tags(o, frame_tags)]
    return kept or list(options)


def expand(rng: random.Random, text: str, frame: Frame | None = None) -> str:
    """``text`` with each ``{name}`` replaced by an entry of the word list ``name`` drawn with ``rng``; with
    a ``frame``, only entries that can be said in it (``tags``)."""
    if "{" not in text:
        return text
    return expand_in(rng, text, frame.tags() if frame is not None else None)


def expand_in(rng: random.Random, text: str, frame_tags: tuple[str, ...] | None) -> str:
    """:func:`expand` for a frame given as its tags (None: no frame)."""
    if "{" not in text:
        return text
    parts = _parts(text)
    lists = word_lists()
    out = [parts[0]]
    for i in range(1, len(parts), 2):  # each slot drawn in turn, left to right
        name = parts[i]
        out.append(pick(rng, lists[name] if frame_tags is None else _list_at(name, frame_tags)))
        out.append(parts[i + 1])
    return "".join(out)


@lru_cache(maxsize=4096)
def _parts(text: str) -> tuple[str, ...]:
    """``text`` split at its word-list slots: text, list name, text, ..., text (each style, joiner and
    frame sentence is parsed once, not once per task it frames)."""
    return tuple(_NAMED.split(text))


@lru_cache(maxsize=2048)
def _list_at(name: str, frame_tags: tuple[str, ...]) -> tuple[str, ...]:
    """The word list ``name``'s entries that can be said in the frame of ``frame_tags`` (once per list and
    frame)."""
    options = word_lists()[name]
    kept = tuple(o for o in options if not tags_of(o) or _fits(tags_of(o), frame_tags))
    return kept or tuple(options)


def text_fits(text: str, frame: Frame | None) -> bool:
    """Whether every tagged phrase ``text`` says can be said in ``frame`` (a clause's wording, "set out
    {f} for the guests", before its slots are filled)."""
    if frame is None:
        return True
    return text_fits_tags(text, frame.tags())


def text_fits_tags(text: str, frame_tags: tuple[str, ...]) -> bool:
    """:func:`text_fits` for a frame given as its tags."""
    said = _wording_tags(text)
    return not said or all(_fits(grouped, frame_tags) for grouped in said)


@lru_cache(maxsize=4096)
def _wording_tags(text: str) -> tuple[dict[str, frozenset[str]], ...]:
    grams = word_grams(text)
    return tuple(g for p, g in _bare_tags() if mentioned(grams, p))


@lru_cache(maxsize=1)
def _bare_tags() -> tuple[tuple[str, dict[str, frozenset[str]]], ...]:
    """The tagged phrases a text is scanned for by its words: not frame sentences (``{slots}``), nor joiners
    and endings, whose tags hang on their punctuation (". Later, " is not the "later" of "later today"), nor
    single words, which say other things elsewhere ("now" in "now that the meal is over")."""
    return tuple(
        (p, g) for p, g in _tags_lower().items() if "{" not in p and p == p.strip(" .,;:!?") and len(words(p)) > 1
    )


@lru_cache(maxsize=1)
def _bare_by_first_word() -> dict[str, tuple[tuple[int, tuple[str, ...]], ...]]:
    """First word -> (position in :func:`_bare_tags`, the phrase's words) of the phrases starting with it:
    a text is read once, word by word, instead of testing every phrase against it."""
    out: dict[str, list[tuple[int, tuple[str, ...]]]] = {}
    for k, (phrase, _) in enumerate(_bare_tags()):
        wanted = _phrase_words(phrase)
        if wanted and len(wanted) <= _LONGEST:
            out.setdefault(wanted[0], []).append((k, wanted))
    return {first: tuple(found) for first, found in out.items()}


def said_tags(text: str) -> dict[str, frozenset[str]]:
    """What the tagged phrases ``text`` already says allow, per dimension (the intersection of their
    values): the focus action's "for my breakfast" leaves the occasion breakfast."""
    toks = words(text)
    starting = _bare_by_first_word()
    said: set[int] = set()
    for i, tok in enumerate(toks):
        for k, wanted in starting.get(tok, ()):
            if k not in said and tuple(toks[i : i + len(wanted)]) == wanted:
                said.add(k)
    bare = _bare_tags()
    allowed: dict[str, frozenset[str]] = {}
    for k in sorted(said):
        for dim, values in bare[k][1].items():
            allowed[dim] = allowed.get(dim, values) & values
    return allowed


@lru_cache(maxsize=1)
def _frames() -> tuple[dict[str, str], ...]:
    """Every frame with no incompatible pair of tags (a few hundred at most)."""
    dims = dimensions()
    out = []
    for combo in product(*dims.values()):
        values = dict(zip(dims, combo, strict=True))
        if not clashes([f"{d}:{v}" for d, v in values.items()]):
            out.append(values)
    return tuple(out)


def frames() -> tuple[Frame, ...]:
    """Every frame with no incompatible pair of tags."""
    return tuple(Frame.model_validate(f) for f in _frames())


def draw_frame(rng: random.Random, said: str = "") -> Frame:
    """A frame for a task whose text so far is ``said``: one of the frames with no incompatible pair of tags
    whose values the said phrases allow (any such frame when none is allowed)."""
    allowed = said_tags(said) if said else {}
    if not allowed:
        return Frame.model_validate(pick(rng, _frames()))
    return Frame.model_validate(pick(rng, _frames_allowing(tuple(sorted(allowed.items())))))


@lru_cache(maxsize=1024)
def _frames_allowing(allowed: tuple[tuple[str, frozenset[str]], ...]) -> tuple[dict[str, str], ...]:
    """The frames whose values ``allowed`` (dimension, values) allows, else every frame: a handful of
    combinations, each worked out the first time a task says it."""
    return tuple(f for f in _frames() if all(f[d] in values for d, values in allowed)) or _frames()


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
    said = form.format(name=obj.name, noun=obj.noun, modifier=obj.modifier, material=material)
    return "those" + said[4:] if obj.plural and said.startswith("that ") else said


def presupposed(text: str, objects: list[CatalogObject]) -> bool:
    """Whether what ``text`` presupposes holds of the ``objects`` it is said of (``presuppositions``:
    "hot again" and "reheat" only of food that was cooked, so was hot once)."""
    return all(o.group in groups for groups in _presupposing(text) for o in objects)


@lru_cache(maxsize=4096)
def _presupposing(text: str) -> tuple[frozenset[str], ...]:
    """The groups each presupposition ``text`` makes allows (one entry per rule whose words it says): the
    texts are template wordings, each read for every pair rendered from it."""
    rules = _data().get("presuppositions") or ()
    return tuple(frozenset(rule["groups"]) for rule in rules if mentions_any(text, rule["words"]))


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


#: The longest phrase, in words, :func:`word_grams` and :func:`said_tags` find.
_LONGEST = 6


def word_grams(text: str, longest: int = _LONGEST) -> frozenset[tuple[str, ...]]:
    """Every run of up to ``longest`` words of ``text``: one pass, then :func:`mentioned` is a set lookup
    (many phrases tested against one text, without a regular expression per phrase)."""
    toks = words(text)
    # zip of shifted lists makes each n-gram tuple in C, without a slice per gram
    shifted = (zip(*(toks[i:] for i in range(n)), strict=False) for n in range(1, longest + 1))
    return frozenset(chain.from_iterable(shifted))


def mentioned_of(text: str, phrases: Iterable[str], longest: int = _LONGEST) -> list[str]:
    """The ``phrases`` that ``text`` mentions as :func:`mentioned` reads them on its :func:`word_grams`, in
    their order: the text's runs of words are made only in the lengths the phrases have."""
    toks = words(text)
    wanted = [(p, _phrase_words(p)) for p in phrases]
    lengths = {len(w) for _, w in wanted if 0 < len(w) <= longest}
    grams = set(chain.from_iterable(zip(*(toks[i:] for i in range(n)), strict=False) for n in lengths))
    return [p for p, w in wanted if w in grams]


@dataclass(frozen=True)
class NamesIndex:
    """A catalog's object names and group nouns by their words (as :func:`mentioned` reads a phrase): what
    a text mentions is found from its own words, without testing every name of a kitchen."""

    #: first word -> (the phrase's words, the names of the objects called so, the keys of the groups with
    #: that noun), for every name and noun of one to :data:`_LONGEST` words
    starting: dict[str, tuple[tuple[tuple[str, ...], tuple[str, ...], tuple[str, ...]], ...]]

    def said(self, text: str) -> tuple[set[str], set[str]]:
        """The object names and the group keys whose words ``text`` says (whole words, any case)."""
        toks = words(text)
        names: set[str] = set()
        groups: set[str] = set()
        starting = self.starting
        for i, tok in enumerate(toks):
            for wanted, named, keyed in starting.get(tok, ()):
                if len(wanted) == 1 or tuple(toks[i : i + len(wanted)]) == wanted:
                    names.update(named)
                    groups.update(keyed)
        return names, groups


def names_index(catalog: Catalog) -> NamesIndex:
    """The :class:`NamesIndex` of ``catalog``, made once and kept with it."""
    index = catalog.tables.get("phrases.names")
    if not isinstance(index, NamesIndex):
        objects: dict[tuple[str, ...], list[str]] = {}
        groups: dict[tuple[str, ...], list[str]] = {}
        for obj in catalog.objects.values():
            objects.setdefault(_phrase_words(obj.name), []).append(obj.name)
        for group in catalog.groups.values():
            groups.setdefault(_phrase_words(group.noun), []).append(group.key)
        starting: dict[str, list[tuple[tuple[str, ...], tuple[str, ...], tuple[str, ...]]]] = {}
        for wanted in dict.fromkeys([*objects, *groups]):
            if 0 < len(wanted) <= _LONGEST:
                entry = (wanted, tuple(objects.get(wanted, ())), tuple(groups.get(wanted, ())))
                starting.setdefault(wanted[0], []).append(entry)
        index = catalog.tables["phrases.names"] = NamesIndex({w: tuple(e) for w, e in starting.items()})
    return index


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
    return _whole_word(phrase.lower()).search(text.lower()) is not None


@lru_cache(maxsize=4096)
def _whole_word(phrase: str) -> re.Pattern[str]:
    """The pattern of :func:`mentions` for one phrase, compiled once (the options' words of every pair)."""
    return re.compile(rf"(?<![\w-]){re.escape(phrase)}(?![\w-])")


def pick(rng: random.Random, options: tuple[str, ...] | list[str]) -> str:
    """One of ``options``. ``rng.choice`` makes the very draw ``options[rng.randrange(len(options))]``
    made before (both take ``_randbelow(len(options))``, so seeded outputs stay byte for byte), with one
    Python call fewer; the generator's other draws of one item from a sequence use it too."""
    return rng.choice(options)
