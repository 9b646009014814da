"""Parsing candidate actions from a reply ("A) ...", "B. ...", "C: ...")."""

from __future__ import annotations

import re

LETTERS = ("A", "B", "C", "D")
_OPTION = re.compile(r"^\s*\(?([A-D])\s*[).:\-]\s*(.+?)\s*$")


def parse_options(text: str) -> list[tuple[str, str]]:
    """``[(letter, action)]`` in letter order, first occurrence of each letter."""
    found: dict[str, str] = {}
    for line in text.splitlines():
        match = _OPTION.match(line)
        if match and match.group(1) not in found and match.group(2).strip():
            found[match.group(1)] = match.group(2).strip()
    return [(letter, found[letter]) for letter in LETTERS if letter in found]


def first_line(text: str) -> str:
    for line in text.splitlines():
        if line.strip():
            return line.strip()
    return ""
