"""An item's world: the scene graph of the scene a pair was made in, and the draft's claims as graph nodes.

Every generator builds the graph the same way (:func:`ambiforge.world.build_graph`, seeded per pair and
attempt, so the bytes depend on nothing but the pair), and names its claims in catalog names; here they
become node ids, so validation checks them against the world instead of the words.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable

from ambiforge.environment import Scene
from ambiforge.models import LeftOut, World
from ambiforge.models.action import Action
from ambiforge.models.scene_graph import Node, SceneGraph
from ambiforge.world import build_graph
from ambiforge.world.index import index
from ambiforge.world.sampler import Layout, lay_out


def graph_seed(seed: int, index_: int, attempt: int) -> int:
    """A 63-bit seed of one pair's attempt (the graph's ``seed`` field must fit Parquet's int64)."""
    digest = hashlib.sha256(f"ambiforge.graph:{seed}:{index_}:{attempt}".encode()).digest()
    return int.from_bytes(digest[:8], "big") >> 1


def node_ids(graph: SceneGraph, names: list[str], find: Callable[[str], Node | None] | None = None) -> list[str]:
    """The node ids of catalog names, in the order given, each once; a name the graph does not hold is left
    out (the world rules report such names: the claim and the graph disagree). ``find``: how a name becomes
    a node (default: by id or name; the LLM generator's resolver also reads plurals and paraphrases)."""
    find = find or index(graph).find
    out: list[str] = []
    for name in names:
        node = find(name)
        if node is not None and node.id not in out:
            out.append(node.id)
    return out


def world_of(
    graph: SceneGraph,
    *,
    target: str | None,
    candidates: list[str],
    fitting: list[str],
    affordance: str | None = None,
    left_out: list[tuple[str, str, str]] | None = None,
    rationale: str | None = None,
    clear_plan: list[Action] | None = None,
) -> World:
    """The world of a draft whose claims are catalog names (``target``: the intended object or place;
    ``affordance``: the job that selects the fitting ones, recorded so the world rules can check them;
    ``clear_plan``: the clear task's plan as actions on the graph, when the generator built it).

    The world holds ``graph`` itself, and the lookup tables it gathered while the pair was drawn and planned
    (:func:`ambiforge.world.index.index`) are dropped here: they would live as long as the item, and whoever
    reads the item's graph later builds its own."""
    target_ids = node_ids(graph, [target]) if target else []
    find = index(graph).find
    out: list[LeftOut] = []
    for name, reason, detail in left_out or []:
        node = find(name)
        if node is not None and all(o.node != node.id for o in out):
            out.append(LeftOut(node=node.id, reason=reason, detail=detail))  # type: ignore[arg-type]
    world = World(
        graph=graph,
        target=target_ids[0] if target_ids else None,
        candidates=node_ids(graph, candidates),
        fitting=node_ids(graph, fitting),
        affordance=affordance,
        left_out=out,
        rationale=rationale,
        **({"clear_plan": clear_plan} if clear_plan is not None else {}),
    )
    graph.tables.clear()
    return world


def scene_graph(scene: Scene, seed: int, index_: int, attempt: int) -> SceneGraph:
    return build_graph(scene, graph_seed(seed, index_, attempt))


def scene_layout(scene: Scene, seed: int, index_: int, attempt: int) -> Layout:
    """The nodes of :func:`scene_graph`'s graph, nothing placed yet (:func:`ambiforge.world.sampler.place`
    makes the same graph from it)."""
    return lay_out(scene, graph_seed(seed, index_, attempt))
