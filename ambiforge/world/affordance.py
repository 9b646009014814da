"""Which nodes of a graph can do an action, from the catalog's affordance table (``affordances.yaml``).

A common-sense or safety item's variants are "every object in this kitchen that can do the job", so they
are computed here rather than written by a template: ``afforded(graph, "peeler", "peel")`` is the Y-peeler
*and* the swivel peeler when both are in the kitchen.
"""

from __future__ import annotations

from ambiforge.catalog.affordances import Affordances, cached_affordances
from ambiforge.models.scene_graph import Node, SceneGraph
from ambiforge.world.index import index
from ambiforge.world.query import Expression, resolve


def able(graph: SceneGraph, action: str, affordances: Affordances | None = None) -> list[Node]:
    """Every node (object or place) that can do ``action``, in graph order. An unknown action is a
    CatalogError naming the affordance file and the known actions."""
    rule = (affordances or cached_affordances()).get(action)
    ix = index(graph)
    return [n for n in graph.nodes if rule.allows(ix.view(n))]


def can(graph: SceneGraph, node: Node, action: str, affordances: Affordances | None = None) -> bool:
    return (affordances or cached_affordances()).get(action).allows(index(graph).view(node))


def afforded(
    graph: SceneGraph, referent: Expression | str, action: str, affordances: Affordances | None = None
) -> list[Node]:
    """The referent's nodes that can do ``action``: what "a peeler" to peel with may be in this kitchen."""
    rule = (affordances or cached_affordances()).get(action)
    ix = index(graph)
    return [n for n in resolve(graph, referent) if rule.allows(ix.view(n))]
