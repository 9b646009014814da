"""Plans as symbolic actions on graph nodes, and their rendering to AmbiK-style text steps.

A plan written as free text can drop a clause ("four portions", "on the eco program") or invent one, and
nothing notices; a plan as actions can be executed (:mod:`ambiforge.world.simulator`) and compared step by
step (``end_of_ambiguity``). The text an item shows is rendered from the actions, so the two never drift.

The action model is :class:`ambiforge.models.action.Action` (an item carries its clear plan as actions).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from ambiforge.models.action import Action
from ambiforge.models.scene_graph import SceneGraph
from ambiforge.world.index import index

#: Objects things go on, not in: "on the plate".
FLAT_NOUNS = frozenset({"plate", "saucer", "tray", "cutting board", "board", "baking tray", "serving tray"})


def _the(graph: SceneGraph | None, ref: str | None, names: Mapping[str, str] | None = None) -> str:
    """'the glass mug' for a node id (the id itself, unchanged, when the graph does not hold it); ``names``
    gives a node another phrase ("a mug": the open referent of an ambiguous plan)."""
    if ref is None:
        return ""
    if names and ref in names:
        return names[ref]
    node = index(graph).by_id.get(ref) if graph is not None else None
    return f"the {node.name if node is not None else ref.replace('_', ' ')}"


def _where(graph: SceneGraph | None, ref: str | None, names: Mapping[str, str] | None = None) -> str:
    """'on the counter' / 'in the fridge' / 'into the glass mug': the preposition the target holds by."""
    node = index(graph).by_id.get(ref) if graph is not None and ref else None
    flat = node is not None and (node.holds == "on" or node.noun in FLAT_NOUNS)
    prep = "on" if flat else "in"
    return f"{prep} {_the(graph, ref, names)}"


def render_action(action: Action, graph: SceneGraph | None = None, names: Mapping[str, str] | None = None) -> str:
    """The step as AmbiK writes it: "Open the fridge.", "Take the whole milk out of the fridge."; ``names``:
    phrases that replace nodes' own ("a mug" for the referent the ambiguous task leaves open, "the
    ceramic plate" for a dirty one once washed)."""
    a, the = action, (lambda ref: _the(graph, ref, names))
    if a.verb == "pick":
        text = f"Pick up {the(a.obj)}"
    elif a.verb in ("place", "put_in"):
        amount = f"{a.quantity} of " if a.quantity else ""
        text = f"Put {amount}{the(a.obj)} {_where(graph, a.target, names)}"
    elif a.verb == "take_out":
        text = f"Take {the(a.obj)} out of {the(a.target)}"
    elif a.verb == "open":
        text = f"Open {the(a.obj)}"
    elif a.verb == "close":
        text = f"Close {the(a.obj)}"
    elif a.verb == "pour":
        amount = f"{a.quantity} of " if a.quantity else ""
        source = index(graph).by_id.get(a.obj) if graph is not None and a.obj else None
        if source is not None and source.type == "place":  # the kettle pours the water it boiled
            text = f"Pour {amount or ''}the water from {the(a.obj)} into {the(a.target)}"
        else:
            text = f"Pour {amount}{the(a.obj)} into {the(a.target)}"
    elif a.verb == "switch_on":
        text = f"Turn on {the(a.obj)}"
        text += f" on the {a.program} program" if a.program else ""
        text += f" at {a.quantity}" if a.quantity else ""
        text += f" for {a.duration}" if a.duration else ""
    elif a.verb == "switch_off":
        text = f"Turn off {the(a.obj)}"
    elif a.verb == "cut":
        into = f" into {a.quantity}" if a.quantity else ""
        text = f"Cut {the(a.obj)}{into} with {the(a.tool)}"
    elif a.verb == "use":
        amount = f" {a.quantity}" if a.quantity else ""
        text = f"{(a.how or '').replace('_', ' ').capitalize()}{amount} {the(a.obj)} with {the(a.tool)}"
    elif a.verb == "wash":
        text = f"Wash {the(a.obj)}"
        text += f" for {a.duration}" if a.duration else ""
    elif a.verb == "fill":
        text = f"Fill {the(a.obj)} with {a.quantity or 'water'}"
    elif a.verb == "handle":
        how = (a.how or "").replace("_", " ")
        amount = f"{a.quantity} of " if a.quantity else ""
        # "@" marks where the object goes in a longer wording: "cut @ into four slices"
        text = how.replace("@", amount + the(a.obj)) if "@" in how else f"{how} {amount}{the(a.obj)}"
        text = text[:1].upper() + text[1:]
        text += f" for {a.duration}" if a.duration else ""
    elif a.verb == "wait":
        until = a.duration is not None and a.duration.startswith("until ")
        text = f"Wait {a.duration}" if until else f"Wait for {a.duration}" if a.duration else "Wait"
    elif a.verb == "hand_over":
        text = f"Give {the(a.obj)} to the {a.person or 'user'}"
    elif a.verb == "ask_robot":
        return f"Ask the other robot: {a.question}"
    else:  # ask
        return f"Ask the {a.person or 'user'}: {a.question}"
    return text + "."


def render_plan(
    plan: Sequence[Action], graph: SceneGraph | None = None, names: Mapping[str, str] | None = None
) -> list[str]:
    """The plan's text. A dirty object is called by its clean name once a step has washed it (names follow
    states: "Put the ceramic plate on the table", not "the dirty ceramic plate", after washing it)."""
    out: list[str] = []
    current = dict(names or {})
    for a in plan:
        out.append(render_action(a, graph, current))
        if a.verb == "wash" and a.obj and graph is not None and a.obj not in current:
            node = index(graph).by_id.get(a.obj)
            if node is not None and node.name.startswith("dirty "):
                current[a.obj] = f"the {node.name.removeprefix('dirty ')}"
    return out
