"""A plan step as a symbolic action on scene-graph nodes (the model; rendering and simulation live in
:mod:`ambiforge.world`). It sits with the item model because an item carries its clear plan as actions.

Every action names nodes by id. ``obj`` is what the action acts on (the thing picked, opened, poured,
cut, switched on); ``target`` is where it goes or comes from; ``tool`` is what it is done with. The
parameters (``quantity``, ``program``, ``duration``, ``person``, ``question``, ``how``) carry the parts
of a task that are not objects, so every clause of a task has a place in its plan. ``ask`` asks the user;
``ask_robot`` asks the other agent of a kitchen shared by two robots (it sees what this one cannot);
``tell`` reports to the user (its ``question`` holds what is said: "there is no juice in the kitchen"), how
a plan ends when what the task needs is not there and the user declines what is offered instead.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Literal, Protocol, get_args

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
    "tell",
]


class Words(Protocol):
    """What wording a step needs of the world it runs in (:func:`ambiforge.world.render_action` gives it)."""

    def the(self, ref: str | None) -> str:
        """'the glass mug' for a node id."""

    def where(self, ref: str | None) -> str:
        """'on the counter' / 'in the fridge': the node with the preposition it holds things by."""

    def is_place(self, ref: str | None) -> bool:
        """Whether the node is a place of the kitchen (the kettle pours the water it boiled)."""


@dataclass(frozen=True)
class VerbSpec:
    """One verb: the fields an action of it needs (the rest are optional parameters or stay empty), how a
    step of it is said, and which of the simulator's effects runs it (:data:`ambiforge.world.HANDLERS`)."""

    required: tuple[str, ...]
    say: Callable[[ActionFields, Words], str]
    effect: str


def _amount(a: ActionFields) -> str:
    return f"{a.quantity} of " if a.quantity else ""


def _pour(a: ActionFields, w: Words) -> str:
    if w.is_place(a.obj):
        return f"Pour {_amount(a)}the water from {w.the(a.obj)} into {w.the(a.target)}."
    return f"Pour {_amount(a)}{w.the(a.obj)} into {w.the(a.target)}."


def _switch_on(a: ActionFields, w: Words) -> str:
    text = f"Turn on {w.the(a.obj)}"
    text += f" on the {a.program} program" if a.program else ""
    text += f" at {a.quantity}" if a.quantity else ""
    text += f" for {a.duration}" if a.duration else ""
    return text + "."


def _handle(a: ActionFields, w: Words) -> str:
    how = (a.how or "").replace("_", " ")
    # "@" marks where the object goes in a longer wording: "cut @ into four slices"
    text = how.replace("@", _amount(a) + w.the(a.obj)) if "@" in how else f"{how} {_amount(a)}{w.the(a.obj)}"
    text = text[:1].upper() + text[1:]
    return text + (f" for {a.duration}" if a.duration else "") + "."


def _wait(a: ActionFields, w: Words) -> str:
    if not a.duration:
        return "Wait."
    return f"Wait {a.duration}." if a.duration.startswith("until ") else f"Wait for {a.duration}."


def _use(a: ActionFields, w: Words) -> str:
    how = (a.how or "").replace("_", " ").capitalize()
    amount = f" {a.quantity}" if a.quantity else ""
    onto = f" on {w.the(a.target)}" if a.target else ""  # spread the honey on the sourdough
    return f"{how}{amount} {w.the(a.obj)}{onto} with {w.the(a.tool)}."


def _cut(a: ActionFields, w: Words) -> str:
    into = f" into {a.quantity}" if a.quantity else ""
    return f"Cut {w.the(a.obj)}{into} with {w.the(a.tool)}."


def _wash(a: ActionFields, w: Words) -> str:
    return f"Wash {w.the(a.obj)}" + (f" for {a.duration}" if a.duration else "") + "."


def _put(a: ActionFields, w: Words) -> str:
    return f"Put {_amount(a)}{w.the(a.obj)} {w.where(a.target)}."


#: Every verb of the plan language, in one place: its required fields, its wording, its effect.
VERBS: dict[Verb, VerbSpec] = {
    "pick": VerbSpec(("obj",), lambda a, w: f"Pick up {w.the(a.obj)}.", "pick"),
    "place": VerbSpec(("obj", "target"), _put, "place"),
    "put_in": VerbSpec(("obj", "target"), _put, "place"),
    "take_out": VerbSpec(("obj", "target"), lambda a, w: f"Take {w.the(a.obj)} out of {w.the(a.target)}.", "take_out"),
    "open": VerbSpec(("obj",), lambda a, w: f"Open {w.the(a.obj)}.", "open_close"),
    "close": VerbSpec(("obj",), lambda a, w: f"Close {w.the(a.obj)}.", "open_close"),
    "pour": VerbSpec(("obj", "target"), _pour, "pour"),
    "switch_on": VerbSpec(("obj",), _switch_on, "switch"),
    "switch_off": VerbSpec(("obj",), lambda a, w: f"Turn off {w.the(a.obj)}.", "switch"),
    "cut": VerbSpec(("obj", "tool"), _cut, "with_tool"),
    "use": VerbSpec(("obj", "tool", "how"), _use, "with_tool"),
    "wash": VerbSpec(("obj",), _wash, "wash"),
    "fill": VerbSpec(("obj",), lambda a, w: f"Fill {w.the(a.obj)} with {a.quantity or 'water'}.", "fill"),
    "handle": VerbSpec(("obj", "how"), _handle, "handle"),
    "wait": VerbSpec((), _wait, "nothing"),
    "hand_over": VerbSpec(("obj",), lambda a, w: f"Give {w.the(a.obj)} to the {a.person or 'user'}.", "hand_over"),
    "ask": VerbSpec(("question",), lambda a, w: f"Ask the {a.person or 'user'}: {a.question}", "nothing"),
    "ask_robot": VerbSpec(("question",), lambda a, w: f"Ask the other robot: {a.question}", "nothing"),
    "tell": VerbSpec(("question",), lambda a, w: f"Tell the {a.person or 'user'} that {a.question}.", "nothing"),
}
if set(VERBS) != set(get_args(Verb)):  # the type names the verbs for type checkers; the table defines them
    raise ImportError(f"models.action: the verb table and Verb differ: {set(VERBS) ^ set(get_args(Verb))}")

#: The fields each verb needs (the rest are optional parameters or must stay empty).
REQUIRED: dict[str, tuple[str, ...]] = {verb: spec.required for verb, spec in VERBS.items()}


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

    verb: Verb  # narrowed to the simulator's vocabulary

    def replaced(self, changes: dict[str, str]) -> Action:
        """The action with node arguments changed to other node ids (the plan under another answer)."""
        given = {name: getattr(self, name) for name in self.model_fields_set}  # its fields are plain values
        return type(self).model_validate({**given, **changes})

    @model_validator(mode="after")
    def _complete(self) -> Action:
        missing = [f for f in REQUIRED[self.verb] if getattr(self, f) is None]
        if missing:
            raise ValueError(f"{self.verb} needs {', '.join(missing)}")
        return self
