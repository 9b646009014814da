"""Plans as symbolic actions on graph nodes, and their rendering to AmbiK-style text steps.

A plan written as free text can drop a clause ("four portions", "on the eco program") or invent one, and
nothing notices; a plan as actions can be executed (:mod:`ambiforge.world.simulator`) and compared step by
step (``end_of_ambiguity``). The text an item shows is rendered from the actions, so the two never drift.

The action model is :class:`ambiforge.models.action.Action` (an item carries its clear plan as actions).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from ambiforge.models.action import VERBS, Action
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


class _Words:
    """How steps name nodes in ``graph`` (:class:`~ambiforge.models.action.Words`)."""

    def __init__(self, graph: SceneGraph | None, names: Mapping[str, str] | None) -> None:
        self.graph, self.names = graph, names

    def the(self, ref: str | None) -> str:
        return _the(self.graph, ref, self.names)

    def where(self, ref: str | None) -> str:
        return _where(self.graph, ref, self.names)

    def is_place(self, ref: str | None) -> bool:
        node = index(self.graph).by_id.get(ref) if self.graph is not None and ref else None
        return node is not None and node.type == "place"


def render_action(action: Action, graph: SceneGraph | None = None, names: Mapping[str, str] | None = None) -> str:
    """The step as AmbiK writes it: "Open the fridge.", "Take the whole milk out of the fridge."; ``names``:
    phrases that replace nodes' own ("a mug" for the referent the ambiguous task leaves open, "the
    ceramic plate" for a dirty one once washed). The wording of each verb is in its table
    (:data:`~ambiforge.models.action.VERBS`)."""
    return VERBS[action.verb].say(action, _Words(graph, names))


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
