"""YAML text to Python data, with libyaml's C parser where PyYAML was built with it.

The pure-Python parser took most of the first pair's time (catalog, templates, phrases, composition
styles, world and affordances: 0.28 s of 0.38 s); libyaml's is about ten times faster and gives the same
data and the same error marks (line, column). Always a safe loader: no YAML tag builds Python objects.
"""

from __future__ import annotations

from typing import Any

import yaml

#: libyaml's safe loader when PyYAML has it, else the pure-Python one (same results, slower).
LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


def load(text: str) -> Any:
    """The data of ``text`` (yaml.YAMLError when it is not YAML)."""
    return yaml.load(text, Loader=LOADER)  # noqa: S506 - LOADER is a safe loader
