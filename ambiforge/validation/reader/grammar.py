"""The reader's own grammar: an AmbiK-style plan sentence back into a step (a verb and the phrases that name
what it acts on, where to and with what).

Written from how plans read ("Take the oat milk out of the fridge.", "Cut the loaf with the bread knife."),
not from the generator's step specs or renderer, so a plan the writer got wrong is read as it is written. A
sentence no pattern knows is a ``free`` step: its verb is its first word and the phrases it names are found
in the kitchen afterwards.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

_DET = r"(?:the|a|an|some|this|that|these|those|my|our)"
_NP = rf"{_DET} [^,;]+?"


@dataclass(frozen=True)
class Step:
    """One read sentence: ``verb`` (take, put, open, close, switch_on, switch_off, pour, cut, use, wash, fill,
    hand_over, wait, ask, free) and the noun phrases of its roles as written ("the glass mug")."""

    index: int
    text: str
    verb: str
    obj: str | None = None
    target: str | None = None
    tool: str | None = None
    how: str | None = None  # the verb as said, for use/free steps ("peel", "spread")
    phrases: tuple[str, ...] = field(default=())  # free steps: the sentence itself, searched for names


_PATTERNS: tuple[tuple[str, re.Pattern[str]], ...] = tuple(
    (verb, re.compile(rf"^{pattern}$", re.IGNORECASE))
    for verb, pattern in (
        ("take", rf"Pick up (?P<obj>{_NP})"),
        ("take", rf"Take (?P<obj>{_NP}) out of (?P<target>{_NP})"),
        ("put", rf"Put (?:[\w .-]+? of )?(?P<obj>{_NP}) (?:in|into|on|onto) (?P<target>{_NP})"),
        ("open", rf"Open (?P<obj>{_NP})"),
        ("close", rf"Close (?P<obj>{_NP})"),
        ("switch_on", rf"Turn on (?P<obj>{_NP})(?: on the \w+ program)?(?: at [\w ]+?)?(?: for [\w -]+)?"),
        ("switch_off", rf"Turn off (?P<obj>{_NP})"),
        ("pour", rf"Pour (?:[\w .-]+? of )?the water from (?P<obj>{_NP}) (?:into|over|onto) (?P<target>{_NP})"),
        ("pour", rf"Pour (?:[\w .-]+? of )?(?P<obj>{_NP}) (?:into|over|onto|on) (?P<target>{_NP})"),
        ("cut", rf"Cut (?P<obj>{_NP})(?: into [\w -]+?)? with (?P<tool>{_NP})"),
        (
            "use",
            rf"(?P<how>[A-Za-z]+(?: [a-z]+)?) (?:[\w .-]+? of )?(?P<obj>{_NP})(?: on (?P<target>{_NP}))?"
            rf" with (?P<tool>{_NP})",
        ),
        ("wash", rf"Wash (?P<obj>{_NP})(?: for [\w -]+)?"),
        ("fill", rf"Fill (?P<obj>{_NP}) with .+"),
        ("hand_over", rf"Give (?P<obj>{_NP}) to the \w+"),
        ("wait", r"Wait\b.*"),
        ("ask", r"Ask\b.*"),
    )
)


def read_sentence(index: int, sentence: str) -> Step:
    """The step a plan sentence says (``index`` counted from 0, as AmbiK counts ``end_of_ambiguity``)."""
    text = re.sub(r"^\s*\d+\s*[.)]\s*", "", sentence).strip().rstrip(".!").strip()
    for verb, pattern in _PATTERNS:
        m = pattern.match(text)
        if m is None:
            continue
        groups = m.groupdict()
        how = (groups.get("how") or "").lower() or None
        return Step(index, text, verb, groups.get("obj"), groups.get("target"), groups.get("tool"), how)
    first = text.split(" ", 1)[0].lower() if text else ""
    return Step(index, text, "free", how=first, phrases=(text,))


def read_plan(sentences: list[str]) -> list[Step]:
    return [read_sentence(i, s) for i, s in enumerate(sentences)]
