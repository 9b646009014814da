"""Is a task one speaker at one moment: a greeting only where the request opens, and time references that
agree on when it is said (``lexicon.yaml``, the reader's own)."""

from __future__ import annotations

import re
from functools import lru_cache
from pathlib import Path
from typing import Any

import yaml

from ambiforge import yamlfile
from ambiforge.errors import ConfigError

LEXICON = Path(__file__).with_name("lexicon.yaml")


@lru_cache(maxsize=1)
def lexicon() -> dict[str, Any]:
    try:
        data = yamlfile.load(LEXICON.read_text(encoding="utf-8"))
    except (OSError, yaml.YAMLError) as exc:
        raise ConfigError(f"{LEXICON}: {str(exc).splitlines()[0]}") from None
    moments = set(data.get("moments") or ())
    for phrase, tags in (data.get("said_at") or {}).items():
        if not tags or not set(tags) <= moments:
            raise ConfigError(f"{LEXICON}: said_at.{phrase}: expected moments of {sorted(moments)}")
    for i, pair in enumerate(data.get("incompatible") or ()):
        if len(pair) != 2 or not set(pair) <= moments:
            raise ConfigError(f"{LEXICON}: incompatible[{i}]: expected two moments")
    return data


def _find(text: str, phrase: str) -> list[int]:
    return [m.start() for m in re.finditer(rf"(?<![\w'-]){re.escape(phrase)}(?![\w'-])", text, re.IGNORECASE)]


def greeting_inside(text: str) -> str | None:
    """A greeting after the request's first words ("..., so I trust your judgement. Hi, I need you to ...")."""
    start = len(text) - len(text.lstrip())
    for greeting in lexicon()["greetings"]:
        for at in _find(text, greeting):
            if at > start:
                return text[at : at + len(greeting)]
    return None


def time_contradiction(text: str) -> tuple[str, str] | None:
    """Two time references no one moment allows together ("Good evening" and "around brunch time")."""
    said = [(p, set(tags)) for p, tags in lexicon()["said_at"].items() if _find(text, p)]
    # a phrase inside a longer one found ("this morning" in "later this morning") counts once, as the longer
    said = [(p, t) for p, t in said if not any(p != q and p in q for q, _ in said)]
    clash = {frozenset(pair) for pair in lexicon()["incompatible"]}
    for i, (p, tags) in enumerate(said):
        for q, other in said[i + 1 :]:
            if all(frozenset((a, b)) in clash for a in tags for b in other):
                return p, q
    return None


def speech_problems(field: str, text: str) -> list[str]:
    out = []
    greeting = greeting_inside(text)
    if greeting is not None:
        out.append(f"{field}: a greeting ({greeting!r}) after the request has begun: a greeting only opens a request")
    clash = time_contradiction(text)
    if clash is not None:
        out.append(f"{field}: {clash[0]!r} and {clash[1]!r} cannot be said at one moment (a time contradiction)")
    return out
