"""Parsing candidate actions from a reply.

Lettered lines ("A) ...", "B. ...", "(C) ...", "D: ...") are the asked-for form. A reply that has none but
numbers its lines ("1. ...", "2) ...") -- what small instruction-tuned models tend to write -- gives its
first four numbered lines as A-D: the choice prompt then shows them with letters, so the letters scored are
the letters the model saw.
"""

from __future__ import annotations

import re

LETTERS = ("A", "B", "C", "D")
_OPTION = re.compile(r"^\s*\(?([A-D])\s*[).:\-]\s*(.+?)\s*$")
_NUMBERED = re.compile(r"^\s*\(?([1-9])\s*[).:]\s*(.+?)\s*$")


def parse_options(text: str) -> list[tuple[str, str]]:
    """``[(letter, action)]`` in letter order, first occurrence of each letter."""
    found: dict[str, str] = {}
    for line in text.splitlines():
        match = _OPTION.match(line)
        if match and match.group(1) not in found and match.group(2).strip():
            found[match.group(1)] = match.group(2).strip()
    if found:
        return [(letter, found[letter]) for letter in LETTERS if letter in found]
    numbered = [m.group(2).strip() for m in map(_NUMBERED.match, text.splitlines()) if m and m.group(2).strip()]
    return list(zip(LETTERS, numbered[: len(LETTERS)], strict=False))


def first_line(text: str) -> str:
    for line in text.splitlines():
        if line.strip():
            return line.strip()
    return ""
