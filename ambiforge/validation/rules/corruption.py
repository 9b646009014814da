"""corruption: text damaged on its way into the dataset (copy-paste, numbering, encoding, editing).

- ``corruption`` (error): a stray step prefix left inside a step ("0: Take the mug", "Step 2: ..."),
  several numbered steps on one line, or mixed scripts inside one word (a Cyrillic "а" in "bаnana", which
  looks right and matches nothing).
- ``fragment`` (warning): a field that starts mid-word or mid-sentence ("ook chopped onions"), a doubled
  word ("the the"), or an editor's note left in the text ("Note: ...").
"""

from __future__ import annotations

import re
import unicodedata
from typing import TYPE_CHECKING

from ambiforge.models import Item
from ambiforge.validation.rules.base import family_rules

if TYPE_CHECKING:
    from ambiforge.validation.context import RuleContext

_STEP_PREFIX = re.compile(r"^\s*(?:step\s*)?\d{1,2}\s*[:.)-](?:\s|$)", re.I)
_SEVERAL_STEPS = re.compile(r"[.!?;]\s+(?:step\s*)?\d{1,2}\s*[.):]\s+[A-Za-z]", re.I)
_LATIN = r"A-Za-z"
_OTHER = r"\u0370-\u03ff\u0400-\u04ff"  # Greek, Cyrillic: the look-alike alphabets
_FOREIGN = re.compile(rf"[{_OTHER}]")
_MIXED = re.compile(rf"[{_LATIN}][{_OTHER}]|[{_OTHER}][{_LATIN}]")
_MIXED_WORD = re.compile(rf"\b\w*(?:[{_LATIN}][{_OTHER}]|[{_OTHER}][{_LATIN}])\w*")
_NOTE = re.compile(r"(?:^|[\s(\[])(?:note|nb|n\.b\.|todo|fixme|edit|comment)\s*:|\[(?:note|sic|edit)[^\]]*\]", re.I)
_DOUBLED = re.compile(r"\b([a-z]+)\s+\1\b", re.I)
_NOTE_WORDS = ("note", "nb", "n.b.", "todo", "fixme", "edit", "comment", "[sic")
_DOUBLE_OK = frozenset({"had", "that", "very", "bye", "knock", "so", "no"})
_TEXT_FIELDS = ("unambiguous_direct", "unambiguous_indirect", "ambiguous_task", "question", "answer")


def _texts(item: Item) -> list[tuple[str, str]]:
    out = [(f, getattr(item, f)) for f in _TEXT_FIELDS]
    out += [(f"plan_for_clear_task[{i}]", s) for i, s in enumerate(item.plan_for_clear_task)]
    out += [(f"plan_for_amb_task[{i}]", s) for i, s in enumerate(item.plan_for_amb_task)]
    out += [(f"variants[{i}]", s) for i, s in enumerate(item.variants)]
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
    found: list[tuple[str, str]] = []
    for field, text in texts:
        if not text.strip():
            continue
        if field.startswith("plan_") and (m := _STEP_PREFIX.match(text)):
            found.append(("corruption", f"{field}: stray step prefix {m.group(0).strip()!r} inside the step"))
        if several and field.startswith("plan_") and (m := _SEVERAL_STEPS.search(text)):
            found.append(("corruption", f"{field}: several numbered steps on one line ({m.group(0).strip()!r})"))
        if mixed and _MIXED.search(text):
            word = _MIXED_WORD.search(text)
            shown = word.group(0) if word else text[:40]
            odd = next((c for c in shown if _FOREIGN.match(c)), "")
            name = unicodedata.name(odd, "?").lower() if odd else "a look-alike letter"
            found.append(("corruption", f"{field}: mixes alphabets in {shown!r} ({name})"))
        first = text.lstrip(" \"'(")
        if first[:1].islower() and not field.startswith("variants"):
            found.append(("fragment", f"{field}: starts mid-sentence: {text.strip()[:40]!r}"))
        if doubled and (m := _DOUBLED.search(text)) and m.group(1).lower() not in _DOUBLE_OK:
            found.append(("fragment", f"{field}: doubled word {m.group(0)!r}"))
        if note and (m := _NOTE.search(text)):
            found.append(("fragment", f"{field}: an editor's note left in the text ({m.group(0).strip()!r})"))
    return found


ORDER = 90  # where the family runs among the rules (plugins: 1000 unless they say)
RULES = family_rules(
    check_family,
    ("corruption", "error", "no stray step prefixes, several steps on one line, or mixed alphabets in a word"),
    ("fragment", "warning", "no text cut mid-word, doubled words or leftover notes"),
)
