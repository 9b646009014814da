"""YAML text to Python data, with libyaml's C parser where PyYAML was built with it and the text is shallow.

The pure-Python parser took most of the first pair's time (catalog, templates, phrases, composition
styles, world and affordances: 0.28 s of 0.38 s); libyaml's is about ten times faster and gives the same
data and the same error marks (line, column). But libyaml recurses in C: a hostile file nested some tens
of thousands deep ("[[[[...", "- - - - ...") crashes the process (a segmentation fault, measured here),
where the Python parser raises RecursionError, which every loader turns into a one-line "nested too
deeply". So the C parser only gets text whose nesting is provably shallow (:func:`nesting_bound`), and
anything else goes to the Python parser. Always a safe loader: no YAML tag builds Python objects.
"""

from __future__ import annotations

import re
from typing import Any

import yaml

#: libyaml's safe loader when PyYAML has it, else the pure-Python one (same results, slower).
FAST_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
#: Nesting the C parser is trusted with (it parsed 5,000 levels and crashed at 50,000 on this machine).
FAST_DEPTH = 1000

_NOT_BRACKET = re.compile(r"[^\[\]{}]+")
_INDICATOR = re.compile(r"(?:^|\s)[-?:](?=\s|$)")


def nesting_bound(text: str) -> int:
    """An upper bound of the nesting depth YAML could read in ``text``: the deepest flow brackets, plus the
    most block indicators ("- ", "? ", ": ") on one line, plus the widest indentation (a block level takes
    at least one column). Brackets and indicators inside quoted strings count too: the bound only errs high."""
    depth = peak = 0
    for ch in _NOT_BRACKET.sub("", text):
        depth += 1 if ch in "[{" else -1
        peak = max(peak, depth)
    indicators = indent = 0
    for line in text.splitlines():
        stripped = line.lstrip(" ")
        indent = max(indent, len(line) - len(stripped))
        indicators = max(indicators, len(_INDICATOR.findall(stripped)))
    return peak + indicators + indent


def load(text: str) -> Any:
    """The data of ``text`` (yaml.YAMLError when it is not YAML; RecursionError when it nests too deeply)."""
    loader = FAST_LOADER if nesting_bound(text) <= FAST_DEPTH else yaml.SafeLoader
    return yaml.load(text, Loader=loader)  # noqa: S506 - both loaders are safe loaders
