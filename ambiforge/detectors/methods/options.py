"""Parsing candidate actions from a reply.

Lettered lines ("A) ...", "B. ...", "(C) ...", "D: ...") are the asked-for form. Small models follow it
loosely, and a reply that cannot be read is a failed task (in no figure), so the reading is tolerant, in
this order: lettered lines; lettered options run together on one line ("A) ... B) ..."); numbered lines
("1. ...", "2) ..."); bulleted lines ("- ...", "* ..."); at last two or more plain lines that are not a
copy of the prompt's labels ("Scene:", "Task:", "Your next action is:", ...). Whatever form was read, the
first four become A-D and the choice prompt shows them with letters, so the letters scored are the letters
the model saw. One plain sentence is no list of options (a refusal, a single answer): nothing is read.
"""

from __future__ import annotations

import re

LETTERS = ("A", "B", "C", "D")
_OPTION = re.compile(r"^\s*\(?([A-D])\s*[).:\-]\s*(.+?)\s*$")
_NUMBERED = re.compile(r"^\s*\(?([1-9])\s*[).:]\s*(.+?)\s*$")
_INLINE = re.compile(r"(?:^|\s)\(?([A-D])\)\s+")
_BULLET = re.compile(r"^\s*[-*\u2022]\s+(.+?)\s*$")
_LABEL = re.compile(
    r"^\s*(scene|task|options?|answer|label|i will|your (?:next|previous|first) actions?\b.*?)\s*:", re.I
)


def parse_options(text: str) -> list[tuple[str, str]]:
    """``[(letter, action)]`` in letter order, first occurrence of each letter."""
    found: dict[str, str] = {}
    for line in text.splitlines():
        match = _OPTION.match(line)
        if match and match.group(1) not in found and match.group(2).strip():
            found[match.group(1)] = match.group(2).strip()
    inline = _inline(text)
    if len(inline) > len(found):  # "A) x B) y" on one line reads as one lettered line holding them all
        return inline
    if found:
        return [(letter, found[letter]) for letter in LETTERS if letter in found]
    numbered = [m.group(2).strip() for m in map(_NUMBERED.match, text.splitlines()) if m and m.group(2).strip()]
    if numbered:
        return list(zip(LETTERS, numbered[: len(LETTERS)], strict=False))
    bullets = [m.group(1) for m in map(_BULLET.match, text.splitlines()) if m]
    if bullets:
        return list(zip(LETTERS, _distinct(bullets), strict=False))
    plain = _distinct([line.strip() for line in text.splitlines() if line.strip() and not _LABEL.match(line)])
    return list(zip(LETTERS, plain, strict=False)) if len(plain) >= 2 else []


def _distinct(texts: list[str]) -> list[str]:
    return list(dict.fromkeys(t for t in texts if t))[: len(LETTERS)]


def _inline(text: str) -> list[tuple[str, str]]:
    """``A) x B) y`` on one line: the pieces between the letters, first occurrence of each letter."""
    parts = _INLINE.split(text)
    found: dict[str, str] = {}
    for letter, piece in zip(parts[1::2], parts[2::2], strict=False):
        piece = piece.strip().splitlines()[0].strip() if piece.strip() else ""
        if piece and letter not in found:
            found[letter] = piece
    return [(letter, found[letter]) for letter in LETTERS if letter in found] if len(found) >= 2 else []


def first_line(text: str) -> str:
    for line in text.splitlines():
        if line.strip():
            return line.strip()
    return ""
