"""corruption: text damaged on its way into the dataset (copy-paste, numbering, encoding, editing).

- ``corruption`` (error): a stray step prefix left inside a step ("0: Take the mug", "Step 2: ...") or a step
  numbered "0." in the published cell (the import drops the number, the raw cell keeps it),
  several numbered steps on one line, mixed scripts inside one word (a Cyrillic "а" in "bаnana", which
  looks right and matches nothing), or a field that starts with a word cut at its start ("ablespoons of
  sugar": no English word, but "tablespoons" is; lemminflect's dictionary decides), or a misspelled word
  ("kithen", "mocrowave": one edit from a known word, see :mod:`ambiforge.validation.spelling`) or cut short
  ("the fridg": the start of a scene word is no excuse, only a whole one or its end, "burger" of "hamburger"; the
  dish the task makes is named in words of its own: "a slushie"), a text that stops inside the last word of a
  kitchen name even where the piece is a word ("with paper tow" of the paper towels), a plan
  step that starts in lower case among steps that do not (the tail of a line cut in two: "urn off stove",
  "cherries"; a plan written in lower case throughout is a style), or a doubled
  word ("the the", "Place place"), a stray closing quote at the end of a text ("Which pasta should I use?'"),
  or a user_intent concept with an empty alternative or a doubled "-" ("washwater|", "--heat|warm"); texts
  joined in a hurry: stray punctuation between them ("knife., . Once", "bottle,."), a step run on after a
  comma with a capitalised verb ("Go to fridge, Open fridge, Choose ..."), a text that ends on an article,
  a conjunction or an object-less "using" ("... potato soup using."), an article before a pronoun ("the it").
- ``fragment`` (warning): a task or question that starts mid-sentence, an answer that starts with no word
  ("d like ..."; a reply in lower case is often short: "jalapeno chips"), or an editor's note left in the text.
"""

from __future__ import annotations

import json
import re
import unicodedata
from functools import lru_cache
from typing import TYPE_CHECKING

from ambiforge.ambik.csv_io import RAW_KEY
from ambiforge.catalog import Catalog, cached_catalog
from ambiforge.models import Item
from ambiforge.textnorm import fold_accents, singular
from ambiforge.validation.language import FUNCTION_WORDS, classes
from ambiforge.validation.rules.base import family_rules
from ambiforge.validation.spelling import (
    closed_compound,
    made_dish_words,
    misspelled_word,
    row_vocabulary,
    run_together,
)

if TYPE_CHECKING:
    from ambiforge.validation.context import RuleContext

_STEP_PREFIX = re.compile(r"^\s*(?:step\s*)?\d{1,2}\s*[:.)-](?:\s|$)", re.I)
#: A second numbered step inside a step: after a sentence, a comma or a word ("... from pantry 2. Measure",
#: "... well mixed. 6.Cook Rice"); numbering starts at 1, so "0" is the stray prefix's, not this.
#: The number must be the next step's ("Cut it into 8. Serve" is an amount, not step 8 run on).
_SEVERAL_STEPS = re.compile(r"(?:[.!?;,]|[a-z])\s+(?:step\s*)?(?P<n>[1-9]\d?)\s*[.):]\s*[A-Za-z]", re.I)
#: A plan cell of the published CSV with a step numbered "0." (AmbiK numbers steps from 1): the importer
#: reads "0." as numbering and drops it, so only the raw cell still shows it ("0:" stays inside the step).
_RAW_ZERO = re.compile(r'(?:^|\\n|")\s*0\s*\.(?!\d)')
_LINE_ZERO = re.compile(r"\s*0\s*\.(?!\d)")
_PLAN_COLUMNS = ("plan_for_clear_task", "plan_for_amb_task")
_LATIN = r"A-Za-z"
_OTHER = r"\u0370-\u03ff\u0400-\u04ff"  # Greek, Cyrillic: the look-alike alphabets
_FOREIGN = re.compile(rf"[{_OTHER}]")
_MIXED = re.compile(rf"[{_LATIN}][{_OTHER}]|[{_OTHER}][{_LATIN}]")
_MIXED_WORD = re.compile(rf"\b\w*(?:[{_LATIN}][{_OTHER}]|[{_OTHER}][{_LATIN}])\w*")
_NOTE = re.compile(r"(?:^|[\s(\[])(?:note|nb|n\.b\.|todo|fixme|edit|comment)\s*:|\[(?:note|sic|edit)[^\]]*\]", re.I)
_DOUBLED = re.compile(r"\b([a-z]+)\s+\1\b", re.I)
_NOTE_WORDS = ("note", "nb", "n.b.", "todo", "fixme", "edit", "comment", "[sic")
_DOUBLE_OK = frozenset({"had", "that", "very", "bye", "knock", "so", "no"})
#: A closing quote after the last sentence with no quote opened before it ("Which pasta should I use?'").
_STRAY_QUOTE = re.compile(r"""[.?!]\s*(['"])\s*$""")
#: A user_intent concept with an empty alternative or a doubled negation ("washwater|", "--heat|warm").
_BAD_CONCEPT = re.compile(r"^\s*(?:--|\|)|\|\s*$|\|\s*\|")
#: Punctuation left where two pieces of text were joined: "knife., . Once", "door., (After", "bottle,.".
_JOINED_PUNCT = re.compile(r"\.\s*,|,\s*\.")
#: Abbreviations whose period a comma may follow ("etc.,", "e.g.,").
_ABBREVIATIONS = frozenset({"etc", "g", "e", "i", "vs", "approx", "min", "mins", "tbsp", "tsp", "oz", "lb", "lbs"})
#: A step that goes on with another step after a comma: "Go to fridge, Open fridge, Choose some food".
_COMMA_STEP = re.compile(r",\s+([A-Z][a-z]+)\b")
#: A text cut after a word that needs more: an article or a conjunction, or "using" with no object, at the end.
_CUT_END = re.compile(r"(?:^|\s)(?:(the|a|an|and|or)|(\w+)\s+using)\s*\.\s*$", re.I | re.M)
#: An article before a pronoun, left by an edit that replaced one of them ("spread the it onto crackers").
_ARTICLE_PRONOUN = re.compile(r"\b(?:the|a|an)\s+(?:it|them|they|its|their)\b", re.I)
_GERUND_USE = frozenset({"for", "before", "after", "when", "while", "by", "without", "from"})
_TEXT_FIELDS = ("unambiguous_direct", "unambiguous_indirect", "ambiguous_task", "question", "answer")


def _texts(item: Item) -> list[tuple[str, str]]:
    out = [(f, getattr(item, f)) for f in _TEXT_FIELDS]
    out += [(f"plan_for_clear_task[{i}]", s) for i, s in enumerate(item.plan_for_clear_task)]
    out += [(f"plan_for_amb_task[{i}]", s) for i, s in enumerate(item.plan_for_amb_task)]
    out += [(f"variants[{i}]", s) for i, s in enumerate(item.variants)]
    return out


def _cut_word(text: str, units: frozenset[str]) -> tuple[str, str] | None:
    """The first word when it is an English word with its first letter or two cut off ('ablespoons' of
    'tablespoons', 'ggs' of 'eggs', 'ix' of 'mix'; 'up of milk' of 'cup of milk': AmbiK's exported plans
    lost the "1 t" before a newline), and that word; None for a word as written ('cherries' stays a fragment
    warning). lemminflect's dictionary says what is a word."""
    m = re.match(r"([a-z]+)(\s+of\b)?", text)
    if not m or len(m.group(1)) < 2 or m.group(1) in FUNCTION_WORDS - {"up"}:
        return None
    word, measured = m.group(1), m.group(2) is not None
    if classes(word) and not measured:
        return None
    for lost in _LOST_PREFIXES:
        whole = lost + word
        if (measured and whole in units) or (not measured and not classes(word) and classes(whole)):
            return word, whole
    return None


#: Letters a cut word most likely lost, commonest first ('ook': cook before book, 'erve': serve before nerve).
_LOST_PREFIXES = (*"sctpabmfdrhwgleoinukvjyqzx", "st", "sp", "th", "ch", "sh", "tr", "cr", "gr", "bl", "br")


def _zero_numbered(item: Item) -> list[str]:
    """The plan columns of an imported row whose raw cell numbers a step "0."."""
    raw = item.extra.get(RAW_KEY) if item.extra else None
    if not raw or not _RAW_ZERO.search(raw):
        return []
    cells = json.loads(raw)
    out = []
    for column in _PLAN_COLUMNS:
        line = next((ln for ln in str(cells.get(column, "")).splitlines() if _LINE_ZERO.match(ln)), None)
        if line is not None:
            out.append(f"{column}: stray step number '0.' (AmbiK numbers steps from 1): {line.strip()[:40]!r}")
    return out


def check_family(item: Item, ctx: RuleContext) -> list[tuple[str, str]]:
    texts = _texts(item)
    # The slow patterns run once over all texts; only a hit sends them field by field (most items: none).
    joined = "\n".join(t for _, t in texts)
    several = _SEVERAL_STEPS.search(joined) is not None
    mixed = not joined.isascii() and _MIXED.search(joined) is not None
    lower = joined.lower()
    tokens = lower.split()
    doubled = any(a == b and a.isalpha() for a, b in zip(tokens, tokens[1:], strict=False))
    note = any(w in lower for w in _NOTE_WORDS) and _NOTE.search(joined) is not None
    punct = _JOINED_PUNCT.search(joined) is not None
    comma_step = _COMMA_STEP.search(joined) is not None
    cut_end = _CUT_END.search(joined) is not None
    article = _ARTICLE_PRONOUN.search(joined) is not None
    found: list[tuple[str, str]] = [("corruption", m) for m in _zero_numbered(item)]
    found += [
        ("corruption", f"user_intent: malformed concept {concept!r} (an empty alternative or a doubled '-')")
        for concept in item.user_intent
        if _BAD_CONCEPT.search(concept)
    ]
    catalog = ctx.catalog or cached_catalog("")
    # accents folded: a text may write the kitchen's "crème fraîche" as "creme fraiche", the same words
    scene = _with_plurals(fold_accents(f"{item.environment_short} {item.environment_full}".lower()))
    # the dish a task makes is named in its own words, which the dictionaries here may lack ("a slushie")
    made = made_dish_words(f"{item.unambiguous_direct}\n{item.ambiguous_task}")
    scene_words = frozenset(re.findall(r"[a-z]+", scene)) | made
    # and a word the row writes in three groups of cells written apart is its word, not a slip ("lassi")
    row_words = row_vocabulary(item)
    names = _scene_names(item.environment_short)
    lower_style = _lower_case_plans(item)
    numbered = _numbered_from_one(item)
    merged = _merged_steps(item, numbered) if several else {}
    for field, text in texts:
        if field.split("[")[0] in numbered:
            text = _STEP_PREFIX.sub("", text, count=1)  # "Step 2: ..." in a plan numbered so throughout
        if not text.strip():
            continue
        if (q := _STRAY_QUOTE.search(text)) and text.count(q.group(1)) % 2 == 1 and not field.startswith("plan_"):
            found.append(("corruption", f"{field}: a stray closing quote at the end: {text.strip()[-40:]!r}"))
        if typo := _typo(text, catalog, ctx.config.units, scene_words, row_words):
            if typo[1].startswith(typo[0]) and typo[1] in scene_words:  # "fridg" of the scene's fridge
                found.append(("corruption", f"{field}: a word cut short {typo[0]!r} (of {typo[1]!r})"))
            else:
                found.append(("corruption", f"{field}: misspelled word {typo[0]!r} ({typo[1]!r}?)"))
        elif joined_words := run_together(text, catalog, ctx.config.units, scene_words, row_words):
            found.append(("corruption", f"{field}: words run together {joined_words[0]!r} ({joined_words[1]!r})"))
        elif inside := _ends_inside_name(text, names):
            found.append(("corruption", f"{field}: ends inside a word {inside[0]!r} (of the kitchen's {inside[1]!r})"))
        if field.startswith("plan_") and (m := _STEP_PREFIX.match(text)):
            found.append(("corruption", f"{field}: stray step prefix {m.group(0).strip()!r} inside the step"))
        if field in merged:
            found.append(("corruption", f"{field}: several numbered steps on one line ({merged[field]!r})"))
        if mixed and _MIXED.search(text):
            word = _MIXED_WORD.search(text)
            shown = word.group(0) if word else text[:40]
            odd = next((c for c in shown if _FOREIGN.match(c)), "")
            name = unicodedata.name(odd, "?").lower() if odd else "a look-alike letter"
            found.append(("corruption", f"{field}: mixes alphabets in {shown!r} ({name})"))
        first = text.lstrip(" \"'(")
        if first[:1].islower() and not field.startswith("variants"):
            cut = _cut_word(first, _unit_words(ctx.config.units))
            if cut:
                found.append(
                    ("corruption", f"{field}: starts with a cut word {cut[0]!r} (of {cut[1]!r}): {text.strip()[:40]!r}")
                )
            elif field.startswith("plan_") and field.split("[")[0] not in lower_style:
                # a step is an instruction: one starting in lower case is the tail of a line cut in two
                # ("urn off stove", "lace Pot on Stove", "cherries" of "1 cup of cherries")
                found.append(("corruption", f"{field}: starts mid-word or mid-sentence: {text.strip()[:40]!r}"))
            elif field != "answer" or _cut_reply(first, scene):
                found.append(("fragment", f"{field}: starts mid-sentence: {text.strip()[:40]!r}"))
        if punct and (joined_at := _joined_punctuation(text)) is not None:
            found.append(("corruption", f"{field}: stray punctuation where texts were joined: {joined_at!r}"))
        if comma_step and field.startswith("plan_") and (step := _comma_step(text)) is not None:
            found.append(("corruption", f"{field}: several steps on one line (', {step} ...')"))
        cut = _CUT_END.search(text) if cut_end else None
        if cut and (cut.group(1) or cut.group(2).lower() not in _GERUND_USE):
            found.append(("corruption", f"{field}: ends cut off: {text.strip()[-40:]!r}"))
        if article and (m := _ARTICLE_PRONOUN.search(text)):
            found.append(("corruption", f"{field}: an article before a pronoun: {m.group(0)!r}"))
        if doubled and (pair := _doubled_word(text, names)):
            found.append(("corruption", f"{field}: doubled word {pair!r}"))
        if note and (m := _NOTE.search(text)):
            found.append(("fragment", f"{field}: an editor's note left in the text ({m.group(0).strip()!r})"))
    return found


def _doubled_word(text: str, names: tuple[tuple[str, ...], ...]) -> str | None:
    """The first word of ``text`` written twice in a row that is a slip: a doubled word a name of the kitchen
    holds as two of its words ("agar agar powder", "mahi mahi fillets") is that name, and a few words are
    doubled in English ("that that", "very very")."""
    for m in _DOUBLED.finditer(text):
        word = m.group(1).lower()
        if word not in _DOUBLE_OK and not any((word, word) in zip(n, n[1:], strict=False) for n in names):
            return m.group(0)
    return None


def _typo(
    text: str, catalog: Catalog, units: tuple[str, ...], scene_words: frozenset[str], row_words: frozenset[str]
) -> tuple[str, str] | None:
    """The first misspelled word of ``text`` (and the word meant) that is no closed compound of two known words
    ("limescale" is lime and scale, not a typo of "timescale")."""
    while (typo := misspelled_word(text, catalog, units, scene_words, row_words)) and closed_compound(
        typo[0], catalog, units
    ):
        scene_words |= {typo[0]}
    return typo


def _numbered_from_one(item: Item) -> frozenset[str]:
    """The plan columns whose every step starts with its own number counted from 1 ("Step 1: ...", "Step 2:
    ...", or "1 - ..."): the writer's numbering, a style, not a prefix left behind. A plan counted from 0 is
    AmbiK's damaged numbering and stays an error."""
    out = set()
    for column in _PLAN_COLUMNS:
        steps = getattr(item, column)
        numbers = [re.sub(r"\D", "", m.group(0)) if (m := _STEP_PREFIX.match(s)) else "" for s in steps]
        if len(steps) >= 2 and numbers == [str(i) for i in range(1, len(steps) + 1)]:
            out.add(column)
    return frozenset(out)


def _merged_steps(item: Item, numbered: frozenset[str]) -> dict[str, str]:
    """The plan steps that hold the next step's number and text ("Take the mug. 2. Pour the tea"), by field,
    with the piece that shows it. The number follows the plan's count (the step's own position, one more for
    each step already found run on, and one less for plans counted from 0): a number out of that count is an
    amount or a setting said in the step ("Cut it into 8. Serve warm")."""
    out: dict[str, str] = {}
    for column in _PLAN_COLUMNS:
        extra = 0
        for i, step in enumerate(getattr(item, column)):
            if column in numbered:
                step = _STEP_PREFIX.sub("", step, count=1)
            for m in _SEVERAL_STEPS.finditer(step):
                if int(m.group("n")) - extra - i in (1, 2):
                    out.setdefault(f"{column}[{i}]", m.group(0).strip())
                    extra += 1
    return out


def _lower_case_plans(item: Item) -> frozenset[str]:
    """The plan columns most of whose steps start in lower case, each with a whole word: the writer's style
    ("1. preheat the oven"), in which a lower-case start says nothing of a line cut in two. Steps cut at
    their start begin with pieces of words ("inse", "et", "dd" of a plan whose first letters were lost)."""
    out = set()
    for column in _PLAN_COLUMNS:
        firsts = [re.split(r"[^A-Za-z]", s.lstrip(" \"'("), maxsplit=1)[0] for s in getattr(item, column) if s.strip()]
        lower = [w for w in firsts if w[:1].islower()]
        if lower and len(lower) * 2 > len(firsts) and all(classes(w) for w in lower):
            out.add(column)
    return frozenset(out)


def _scene_names(environment: str) -> tuple[tuple[str, ...], ...]:
    """The kitchen's names of two or more words, as words ("paper towels", "mini marshmallows")."""
    names = (tuple(re.findall(r"[a-z]+", n.lower())) for n in environment.split(",") if " " in n.strip())
    return tuple(n for n in names if len(n) >= 2)


def _ends_inside_name(text: str, names: tuple[tuple[str, ...], ...]) -> tuple[str, str] | None:
    """A text that stops inside the last word of a kitchen name it is saying ("Wipe dry with paper tow" of
    the paper towels, "Top each mug with mini marsh" of the mini marshmallows): the cut piece may be a word of
    its own, which the misspelling check leaves alone. The name's other words before it say which name; a
    singular ("a paper towel") is the name, not a cut."""
    if not names:
        return None
    tail = text.rstrip().rstrip(".").rsplit(maxsplit=1)
    last = tail[-1].lower() if len(tail) == 2 else ""
    if len(last) < 2 or not last.isalpha() or not any(n[-1].startswith(last) and n[-1] != last for n in names):
        return None
    ws = re.findall(r"[a-z]+", text.lower())
    for name in names:
        whole = name[-1]
        if (
            len(last) >= 2
            and whole.startswith(last)
            and len(whole) > len(last)
            and singular(whole) != last
            and tuple(ws[-len(name) : -1]) == name[:-1]
        ):
            return " ".join(name[:-1] + (last,)), " ".join(name)
    return None


def _joined_punctuation(text: str) -> str | None:
    """Two marks with nothing between ("knife., .", "door., (", "bottle,."), not an abbreviation's period
    before a comma ("etc.,", "e.g.,")."""
    for m in _JOINED_PUNCT.finditer(text):
        if text[m.start()] == ".":  # a period before the comma: not an abbreviation's, nor after ")" ("(e.g. x).,")
            before = re.search(r"(\w*)$", text[: m.start()])
            word = before.group(1) if before else ""
            if not word or word.lower() in _ABBREVIATIONS:
                continue
        return text[max(0, m.start() - 12) : m.end() + 8].strip()
    return None


def _comma_step(text: str) -> str | None:
    """A capitalised verb after a comma inside a step ("Go to fridge, Open fridge"): the next step run on.
    Only a word that is a verb and no noun or name ("Put", "Remove", "Choose"; not "Place", "Greek")."""
    for m in _COMMA_STEP.finditer(text):
        word = m.group(1).lower()
        if "VERB" in classes(word) and not classes(word) & {"NOUN", "PROPN", "ADJ"}:
            return m.group(1)
    return None


def _cut_reply(answer: str, scene: str) -> bool:
    """A reply in lower case is cut only when its first word is no word ("d like the oat milk" of "I'd
    like"); a reply may start in lower case with a word or a name of the kitchen ("use the cup", "jalapeno
    chips")."""
    m = re.match(r"[a-z]+", answer)
    return m is not None and not classes(m.group(0)) and m.group(0) not in re.findall(r"[a-z]+", scene)


def _with_plurals(scene: str) -> str:
    """The scene's text and its words' plurals: a task may call the kitchen's "burger patties" "the
    burgers", which is the scene's word, not a misspelling of another ("buggers")."""
    names = set(re.findall(r"[a-z]+", scene))
    return scene + " " + " ".join(sorted(f"{w}s {w}es" for w in names if len(w) >= 3))


@lru_cache(maxsize=8)
def _unit_words(units: tuple[str, ...]) -> frozenset[str]:
    return frozenset(w for u in units for w in (u.lower(), u.lower() + "s"))


ORDER = 90  # where the family runs among the rules (plugins: 1000 unless they say)
RULES = family_rules(
    check_family,
    (
        "corruption",
        "error",
        "no stray step numbers ('0.', '0:'), several steps on one line, cut, doubled or joined text, mixed alphabets",
    ),
    ("fragment", "warning", "no text cut mid-sentence, no leftover notes"),
)
