"""What every offline template declares, whatever its mechanism: texts with slots and the slots' conditions.

Texts use ``str.format`` slots: ``{t}`` the target (the object the ambiguity is about), ``{ti}`` its
paraphrase, ``{tb}`` its bare name, ``{p}`` the preposition its group noun takes; for each co-slot ``f``
(any name) ``{f}``, ``{fi}``, ``{fb}``, ``{fp}``, and pronouns ``{fit}`` ("it"/"them") and ``{fis}``
("it is"/"they are"). A mechanism adds its own fields (a question, an intent, a safety condition) by
subclassing :class:`TemplateSpec`. Slots are checked when the file is loaded, so a typo is a ConfigError
naming the template and the text, not a KeyError in the middle of a build.
"""

from __future__ import annotations

import string
from typing import ClassVar

from pydantic import BaseModel, ConfigDict, Field, model_validator

from ambiforge.catalog.affordances import cached_affordances
from ambiforge.catalog.conditions import ANY, Condition
from ambiforge.catalog.world import cached_world
from ambiforge.errors import CatalogError
from ambiforge.generation.offline.steps import StepSpec, check_refs

KEY_PATTERN = r"^[a-z][a-z0-9_]{0,63}$"
TARGET_SLOTS = ("t", "ti", "tb", "p")
CO_SUFFIXES = ("", "i", "b", "p", "it", "is", "are")
TEXT_FIELDS = ("direct", "indirect", "ambiguous", "plan_amb")


def placeholders(text: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(text) if name is not None}


class TemplateSpec(BaseModel):
    """One template of a type's ``templates.yaml``; ``id`` (``<type>/<key>``) goes into provenance."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    #: Whether the mechanism binds a target (``{t}``) from a group of the scene.
    uses_target: ClassVar[bool] = True

    key: str = Field(pattern=KEY_PATTERN)
    mechanism: str
    ambiguity_type: str = Field(default="", description="set by the loader: the type whose file holds it")
    direct: tuple[str, ...] = Field(min_length=1, description="unambiguous task wordings (one is drawn)")
    indirect: tuple[str, ...] = Field(min_length=1, description="paraphrases of the task")
    plan: tuple[StepSpec, ...] = Field(min_length=1, description="steps of the clear plan, as actions (.steps)")
    ambiguous: tuple[str, ...] = Field(
        default=(), description="ambiguous wordings aligned with direct; empty: the target slot is rewritten"
    )
    plan_amb: tuple[str, ...] = Field(
        default=(),
        description="text steps of the ambiguous plan from its end of ambiguity on (the steps before it are "
        "the clear plan's); empty: the clear plan's steps with the target left open",
    )
    setup: dict[str, str] = Field(
        default_factory=dict,
        description="slot -> place: where the task presupposes an object is (the milk "
        "to put away is out, on the counter)",
    )
    used: tuple[str, ...] = Field(
        default=(),
        description="slots whose objects the task presupposes used, so dirty, where ``setup`` keeps them (the "
        "plate to load into the dishwasher is a used one in the sink, never a clean one from the cupboard)",
    )
    target: Condition = ANY
    co: dict[str, Condition] = Field(default_factory=dict, description="co-slot name -> what fills it")
    why: str = Field(
        default="",
        description="a common-sense template: why common sense picks the intended one ('the {name} is the "
        "{noun} made to slice bread'); slots {name}, {noun} and the co-slots; recorded on the item",
    )

    @property
    def id(self) -> str:
        return f"{self.ambiguity_type}/{self.key}"

    @model_validator(mode="after")
    def _check_texts(self) -> TemplateSpec:
        if self.ambiguous and len(self.ambiguous) != len(self.direct):
            raise ValueError(f"ambiguous has {len(self.ambiguous)} wordings, direct {len(self.direct)}")
        for slot in self.co:
            if not slot.isidentifier() or slot in TARGET_SLOTS:
                raise ValueError(f"co: {slot!r} is not a usable slot name")
        allowed = {f"{slot}{suffix}" for slot in self.co for suffix in CO_SUFFIXES} | self.extra_slots()
        if self.uses_target:
            allowed |= set(TARGET_SLOTS)
        slots = {*self.co, *(("t",) if self.uses_target else ())}
        places = {p.id for p in cached_world().places}
        check_refs(self.plan, slots, places, "plan")
        for slot, place in self.setup.items():
            if slot not in slots or place not in places:
                raise ValueError(f"setup: {slot}: {place}: expected a slot and a place")
        for slot in self.used:
            if slot not in self.setup:
                raise ValueError(f"used: {slot}: a used object is kept where 'setup' says: give it a place there")
        for name in TEXT_FIELDS:
            for i, text in enumerate(getattr(self, name)):
                try:
                    unknown = placeholders(text) - allowed
                except ValueError as exc:
                    raise ValueError(f"{name}[{i}]: {exc}") from None
                if unknown:
                    raise ValueError(
                        f"{name}[{i}]: unknown slot {{{sorted(unknown)[0]}}} (allowed: {', '.join(sorted(allowed))})"
                    )
        return self

    def extra_slots(self) -> set[str]:
        """Slots a mechanism fills itself (none by default)."""
        return set()

    def requirements(self) -> list[Condition]:
        """One condition per object the template needs: the target (when it has one), then the co-slots."""
        return [self.target, *self.co.values()] if self.uses_target else list(self.co.values())


def check_format(text: str, names: set[str], field: str) -> str:
    """A mechanism's own format string (a question, an answer) may use only ``names``."""
    unknown = placeholders(text) - names
    if unknown:
        raise ValueError(f"{field}: unknown slot {{{sorted(unknown)[0]}}} (allowed: {', '.join(sorted(names))})")
    return text


def check_action(name: str | None) -> str | None:
    """A template's affordance must be an action of ``affordances.yaml`` (a typo names the known ones)."""
    if name is not None:
        try:
            cached_affordances().get(name)
        except CatalogError as exc:
            raise ValueError(str(exc).split(": ", 1)[-1]) from None
    return name
