"""Mechanisms by name: the ``mechanism:`` a template in ``templates.yaml`` names is looked up here.

- ``choose_member``: several fitting members of one group are in the scene; only the user knows which one
  ("a mug" among a glass and a ceramic mug). Shortlist = those members, intent = the distinguishing word.
- ``omission``: the ambiguous wording leaves out a place or device a person infers ("Put the milk away").
- ``tool_for_use``: of a group's members in the scene exactly one fits the target condition (the one tool
  made for the job: the bread knife among knives).
- ``partition``: a group's fitting members split by a ``safe`` condition (microwave-safe or not, clean or
  dirty); the task names a safe one, the intent forbids the others.
"""

from __future__ import annotations

from ambiforge.generation.offline.mechanisms import choose_member, omission, partition, tool_for_use
from ambiforge.generation.offline.mechanisms.base import Mechanism

MECHANISMS: dict[str, Mechanism] = {
    m.MECHANISM.name: m.MECHANISM for m in (choose_member, omission, tool_for_use, partition)
}


def get(name: str) -> Mechanism:
    """The mechanism called ``name``; KeyError with the known names otherwise (the loader reports it)."""
    if name not in MECHANISMS:
        raise KeyError(f"unknown mechanism {name!r} (known: {', '.join(MECHANISMS)})")
    return MECHANISMS[name]


__all__ = ["MECHANISMS", "Mechanism", "get"]
