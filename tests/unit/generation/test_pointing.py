"""Planning says "the" for a demonstrative that points at an object out of reach: the rewrite matches the
names the way a case-insensitive regex alternation of them (longest first, ending a word) would."""

from __future__ import annotations

import re

import pytest

from ambiforge.generation.offline.planning import _demonstrative, _unpoint

WORDS = ("this", "that", "these", "those")


def _by_regex(text: str, names: list[str]) -> str:
    alternation = "|".join(re.escape(n) for n in names)
    pattern = re.compile(rf"\b({'|'.join(WORDS)})\s+({alternation})\b", re.IGNORECASE)
    return pattern.sub(lambda m: ("The " if m.group(1)[0].isupper() else "the ") + m.group(2), text)


@pytest.mark.parametrize(
    ("text", "names", "expected"),
    [
        ("Bring me that jam.", ["jam"], "Bring me the jam."),
        ("That Jam and this milk carton, please.", ["milk carton", "jam"], "The Jam and the milk carton, please."),
        ("Bring me that jams.", ["jam"], "Bring me that jams."),  # "jam" does not end a word there
        ("Hand me this  glass mug.", ["mug", "glass mug"], "Hand me the glass mug."),
        ("Pass that mug, not this one.", ["glass mug"], "Pass that mug, not this one."),
    ],
)
def test_unpoint(text: str, names: list[str], expected: str) -> None:
    longest_first = sorted(names, key=len, reverse=True)
    assert _unpoint(text, _demonstrative(WORDS), longest_first) == expected
    assert _by_regex(text, longest_first) == expected
