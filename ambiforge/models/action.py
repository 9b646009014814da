"""A plan step as a symbolic action on scene-graph nodes (the model; rendering and simulation live in
:mod:`ambiforge.world`). It sits with the item model because an item carries its clear plan as actions.

Every action names nodes by id. ``obj`` is what the action acts on (the thing picked, opened, poured,
cut, switched on); ``target`` is where it goes or comes from; ``tool`` is what it is done with. The
parameters (``quantity``, ``program``, ``duration``, ``person``, ``question``, ``how``) carry the parts
of a task that are not objects, so every clause of a task has a place in its plan. ``ask`` asks the user;
``ask_robot`` asks the other agent of a kitchen shared by two robots (it sees what this one cannot).
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, model_validator

Verb = Literal[
    "pick",
    "place",
    "put_in",
    "take_out",
    "open",
    "close",
    "pour",
    "switch_on",
    "switch_off",
    "cut",
    "use",
    "wash",
    "fill",
    "handle",
    "wait",
    "hand_over",
    "ask",
    "ask_robot",
]

#: The fields each verb needs (the rest are optional parameters or must stay empty).
REQUIRED: dict[str, tuple[str, ...]] = {
    "pick": ("obj",),
    "place": ("obj", "target"),
    "put_in": ("obj", "target"),
    "take_out": ("obj", "target"),
    "open": ("obj",),
    "close": ("obj",),
    "pour": ("obj", "target"),
    "switch_on": ("obj",),
    "switch_off": ("obj",),
    "cut": ("obj", "tool"),
    "use": ("obj", "tool", "how"),
    "wash": ("obj",),
    "fill": ("obj",),
    "handle": ("obj", "how"),
    "wait": (),
    "hand_over": ("obj",),
    "ask": ("question",),
    "ask_robot": ("question",),
}


class ActionFields(BaseModel):
    """The fields of a plan step, shared by the action on graph nodes and by a template's step spec (which
    names slots where the action names node ids), so the two cannot drift apart."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    verb: str
    obj: str | None = None
    target: str | None = None
    tool: str | None = None
    how: str | None = None
    quantity: str | None = None
    program: str | None = None
    duration: str | None = None
    person: str | None = None
    question: str | None = None


class Action(ActionFields):
    """One step of a plan: ``Action(verb="take_out", obj="whole_milk", target="fridge")``."""

    verb: Verb  # type: ignore[assignment]  # narrowed to the simulator's vocabulary

    def replaced(self, changes: dict[str, str]) -> Action:
        """The action with node arguments changed to other node ids (the plan under another answer)."""
        return type(self).model_validate({**self.model_dump(exclude_unset=True), **changes})

    @model_validator(mode="after")
    def _complete(self) -> Action:
        missing = [f for f in REQUIRED[self.verb] if getattr(self, f) is None]
        if missing:
            raise ValueError(f"{self.verb} needs {', '.join(missing)}")
        return self
