"""Mechanisms by name: the ``mechanism:`` a template in ``templates.yaml`` names is looked up here, in
:data:`MECHANISMS` (entry-point group ``ambiforge.mechanisms``; this package imports none of them).

- ``choose_member``: several fitting members of one group are in the scene; only the user knows which one
  ("a mug" among a glass and a ceramic mug). Shortlist = those members, intent = the distinguishing word.
- ``omission``: the ambiguous wording leaves out a place or device a person infers ("Put the milk away").
- ``tool_for_use``: of the objects a group noun picks out exactly one does the job and is made for it (the tool
  made for the job: the bread knife among knives).
- ``partition``: a group's fitting members split by a ``safe`` condition (microwave-safe or not, clean or
  dirty); the task names a safe one, the intent forbids the others.
"""

from __future__ import annotations

from ambiforge.errors import ConfigError
from ambiforge.generation.offline.mechanisms.base import Mechanism
from ambiforge.registry import Registry


def _check(name: str, mechanism: Mechanism) -> None:
    if not isinstance(mechanism, Mechanism) or mechanism.name != name:
        raise ConfigError(f"mechanism {name!r}: expected a Mechanism named {name!r}")


MECHANISMS: Registry[Mechanism] = Registry(
    "mechanism", "ambiforge.mechanisms", check=_check, order_key=lambda mechanism: mechanism.order, builtin=True
)


def get(name: str) -> Mechanism:
    """The mechanism called ``name``; a ConfigError with the known names otherwise (the loader names the
    template)."""
    return MECHANISMS.get(name)


__all__ = ["MECHANISMS", "Mechanism", "get"]
