"""Plans as symbolic actions on graph nodes, and their rendering to AmbiK-style text steps.

A plan written as free text can drop a clause ("four portions", "on the eco program") or invent one, and
nothing notices; a plan as actions can be executed (:mod:`ambiforge.world.simulator`) and compared step by
step (``end_of_ambiguity``). The text an item shows is rendered from the actions, so the two never drift.

Every action names nodes by id. ``obj`` is what the action acts on (the thing picked, opened, poured,
cut, switched on); ``target`` is where it goes or comes from; ``tool`` is what it is done with. The
parameters (``quantity``, ``program``, ``duration``, ``person``, ``question``, ``how``) carry the parts
of a task that are not objects, so every clause of a task has a place in its plan.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Literal

from pydantic import BaseModel, ConfigDict, model_validator

from ambiforge.models.scene_graph import SceneGraph
from ambiforge.world.index import index

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
    "wait",
    "hand_over",
    "ask",
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
    "wait": (),
    "hand_over": ("obj",),
    "ask": ("question",),
}


class Action(BaseModel):
    """One step of a plan: ``Action(verb="take_out", obj="whole_milk", target="fridge")``."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    verb: Verb
    obj: str | None = None
    target: str | None = None
    tool: str | None = None
    how: str | None = None
    quantity: str | None = None
    program: str | None = None
    duration: str | None = None
    person: str | None = None
    question: str | None = None

    @model_validator(mode="after")
    def _complete(self) -> Action:
        missing = [f for f in REQUIRED[self.verb] if getattr(self, f) is None]
        if missing:
            raise ValueError(f"{self.verb} needs {', '.join(missing)}")
        return self


def _the(graph: SceneGraph | None, ref: str | None) -> str:
    """'the glass mug' for a node id (the id itself, unchanged, when the graph does not hold it)."""
    if ref is None:
        return ""
    node = index(graph).by_id.get(ref) if graph is not None else None
    return f"the {node.name if node is not None else ref.replace('_', ' ')}"


def _where(graph: SceneGraph | None, ref: str | None) -> str:
    """'on the counter' / 'in the fridge' / 'into the glass mug': the preposition the target holds by."""
    node = index(graph).by_id.get(ref) if graph is not None and ref else None
    prep = "on" if node is not None and node.holds == "on" else "in"
    return f"{prep} {_the(graph, ref)}"


def render_action(action: Action, graph: SceneGraph | None = None) -> str:
    """The step as AmbiK writes it: "Open the fridge.", "Take the whole milk out of the fridge."."""
    a, the = action, (lambda ref: _the(graph, ref))
    if a.verb == "pick":
        text = f"Pick up {the(a.obj)}"
    elif a.verb in ("place", "put_in"):
        text = f"Put {the(a.obj)} {_where(graph, a.target)}"
    elif a.verb == "take_out":
        text = f"Take {the(a.obj)} out of {the(a.target)}"
    elif a.verb == "open":
        text = f"Open {the(a.obj)}"
    elif a.verb == "close":
        text = f"Close {the(a.obj)}"
    elif a.verb == "pour":
        amount = f"{a.quantity} of " if a.quantity else ""
        text = f"Pour {amount}{the(a.obj)} into {the(a.target)}"
    elif a.verb == "switch_on":
        text = f"Turn on {the(a.obj)}"
        text += f" on the {a.program} program" if a.program else ""
        text += f" for {a.duration}" if a.duration else ""
    elif a.verb == "switch_off":
        text = f"Turn off {the(a.obj)}"
    elif a.verb == "cut":
        into = f" into {a.quantity}" if a.quantity else ""
        text = f"Cut {the(a.obj)}{into} with {the(a.tool)}"
    elif a.verb == "use":
        text = f"{(a.how or '').replace('_', ' ').capitalize()} {the(a.obj)} with {the(a.tool)}"
    elif a.verb == "wash":
        text = f"Wash {the(a.obj)}"
    elif a.verb == "wait":
        text = f"Wait for {a.duration}" if a.duration else "Wait"
    elif a.verb == "hand_over":
        text = f"Give {the(a.obj)} to the {a.person or 'user'}"
    else:  # ask
        return f"Ask the {a.person or 'user'}: {a.question}"
    return text + "."


def render_plan(plan: Sequence[Action], graph: SceneGraph | None = None) -> list[str]:
    return [render_action(a, graph) for a in plan]
