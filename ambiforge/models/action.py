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

from ambiforge.models.filling import new, set_extra, set_fields_set, set_private, set_values

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

    @classmethod
    def made(cls, fields: dict[str, str]) -> Action:
        """An action from fields code checked itself (a known verb, node ids, its required fields): filled
        directly, as ``model_construct`` does, at a fifth of its cost (a build makes one for every step
        of every draft); equal to ``Action(**fields)`` (tests/unit/world/test_scene_graph_model.py)."""
        action = new(cls)
        set_values(action, {**_EMPTY, **fields})
        keys = fields.keys()
        shared = _FIELDS_SET.get(frozenset(keys))
        if shared is None:
            shared = _FIELDS_SET[frozenset(keys)] = set(keys)
        set_fields_set(action, shared)
        set_extra(action, None)
        set_private(action, None)
        return action

    def replaced(self, changes: dict[str, str]) -> Action:
        """The action with node arguments changed to other node ids (the plan under another answer):
        ``model_copy(update=changes)`` without its generic copying, for code that changes ids only."""
        action = new(type(self))
        set_values(action, {**self.__dict__, **changes})
        set_fields_set(action, self.__pydantic_fields_set__ | changes.keys())
        set_extra(action, None)
        set_private(action, None)
        return action

    @model_validator(mode="after")
    def _complete(self) -> Action:
        missing = [f for f in REQUIRED[self.verb] if getattr(self, f) is None]
        if missing:
            raise ValueError(f"{self.verb} needs {', '.join(missing)}")
        return self


_EMPTY: dict[str, str | None] = dict.fromkeys(ActionFields.model_fields)
#: One fields-set per combination of fields, shared by the actions made with it (model_copy copies it
#: before adding to it; a frozen action never changes it in place): a set per action was GC work.
_FIELDS_SET: dict[frozenset[str], set[str]] = {}
