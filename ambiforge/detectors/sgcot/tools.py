"""The functions an SG-CoT planner may call, as OpenAI ``tools`` and as the JSON fallback reads them, and the
text a call returns. Retrieval runs :func:`ambiforge.world.retrieve_node` / :func:`retrieve_edge`, the
same code validation and generation use, on the graph the episode sees (:func:`episode_graph`).

Three functions end an episode: ``act(step, object)`` (the next action and the node it acts on),
``ask(question, tag)`` (a clarifying question to the user and the ambiguity type it resolves) and
``ask_robot(question)`` (a question to the other robot of a kitchen two robots share: the seed's clarifying
act for partial observability).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from ambiforge.models.item import World
from ambiforge.models.scene_graph import RELATIONS, Edge, Node, SceneGraph
from ambiforge.world import retrieve_edge, retrieve_node
from ambiforge.world.query import ATTRIBUTE_KEYS

RETRIEVAL = ("retrieve_node", "retrieve_edge")
FINAL = ("act", "ask", "ask_robot")
ASKING_AGENT = "robot"  # the agent whose view an observation item's planner has (``AgentView.agent``)


def _function(name: str, description: str, properties: dict[str, Any], required: Sequence[str] = ()) -> dict:
    return {
        "type": "function",
        "function": {
            "name": name,
            "description": description,
            "parameters": {"type": "object", "properties": properties, "required": list(required)},
        },
    }


def tool_specs(retrieval: bool, edges: bool, tags: Sequence[str]) -> list[dict[str, Any]]:
    """The functions offered this turn: retrieval while turns are left (``retrieve_edge`` only on a graph with
    edges), the two final answers always."""
    specs = []
    if retrieval:
        specs.append(
            _function(
                "retrieve_node",
                "Find nodes of the kitchen's scene graph by name (an id, a name or a noun such as 'mug'), "
                "or by an attribute (attr_key, attr_val), or both.",
                {
                    "name": {"type": "string"},
                    "attr_key": {"type": "string", "enum": list(ATTRIBUTE_KEYS)},
                    "attr_val": {"type": ["string", "boolean"]},
                },
            )
        )
        if edges:
            specs.append(
                _function(
                    "retrieve_edge",
                    "Find relations 'source relation target' (each part may be left out to match any).",
                    {
                        "source": {"type": "string"},
                        "relation": {"type": "string", "enum": list(RELATIONS)},
                        "target": {"type": "string"},
                    },
                )
            )
    specs.append(
        _function(
            "act",
            "Final answer: the robot's next action, and the id of the node it acts on.",
            {"step": {"type": "string"}, "object": {"type": "string"}},
            ["step"],
        )
    )
    specs.append(
        _function(
            "ask",
            "Final answer: ask a clarifying question; tag names the kind of ambiguity.",
            {"question": {"type": "string"}, "tag": {"type": "string", "enum": list(tags)}},
            ["question", "tag"],
        )
    )
    specs.append(
        _function(
            "ask_robot",
            "Final answer: ask the other robot working in this kitchen (it sees the side you cannot).",
            {"question": {"type": "string"}},
            ["question"],
        )
    )
    return specs


def episode_graph(world: World | None, ambiguous: bool, edges: bool = True) -> SceneGraph | None:
    """The kitchen a half is set in: an environment-induced pair's ambiguous half the perturbed graph (for
    ``observation`` only the asking agent's view of it), everything else the item's graph; without edges
    for the ablation."""
    if world is None:
        return None
    graph = world.graph
    perturbation = world.perturbation
    if ambiguous and perturbation is not None:
        graph = perturbation.graph
        view = next((v for v in perturbation.views if v.agent == ASKING_AGENT), None)
        if view is not None:
            seen = set(view.nodes)
            places = not any(n.type == "place" and n.id in seen for n in graph.nodes)  # a view of objects only
            nodes = tuple(n for n in graph.nodes if n.id in seen or (places and n.type == "place"))
            kept = {n.id for n in nodes}
            graph = graph.model_copy(
                update={"nodes": nodes, "edges": tuple(e for e in graph.edges if e.source in kept and e.target in kept)}
            )
    if not edges and graph.edges:
        graph = graph.model_copy(update={"edges": ()})
    return graph


def view_text(world: World | None, ambiguous: bool) -> str:
    """What the planner is told of its view when it sees part of the kitchen (an observation pair's
    ambiguous half): what it sees, and that another robot works on the other side and sees the rest."""
    perturbation = world.perturbation if world is not None else None
    if not ambiguous or perturbation is None:
        return ""
    view = next((v for v in perturbation.views if v.agent == ASKING_AGENT), None)
    if view is None:
        return ""
    by_id = {n.id: n for n in perturbation.graph.nodes}
    seen = [by_id[i].name for i in view.nodes if i in by_id]
    others = [v.agent for v in perturbation.views if v.agent != ASKING_AGENT]
    return (
        f"You are {ASKING_AGENT}. You see only your side of the kitchen and the shared counter: "
        f"{', '.join(seen) or 'nothing'}. Another robot ({', '.join(others) or 'robot_b'}) works on the other "
        "side of the kitchen and sees what you cannot; ask_robot puts a question to it."
    )


def _value(value: Any) -> Any:
    """A model's attribute value: ``"true"``/``"false"``/``"null"`` as JSON would read them."""
    if isinstance(value, str) and value.strip().lower() in ("true", "false", "null", "none"):
        return {"true": True, "false": False}.get(value.strip().lower())
    return value


def _where(graph: SceneGraph, node: Node) -> str:
    place = next((e for e in graph.edges if e.source == node.id and e.relation in ("in", "on", "inside")), None)
    return f"; {place.relation} {place.target}" if place else ""


def node_line(graph: SceneGraph, node: Node) -> str:
    """``glass_mug (glass mug, object; material glass, colour clear; on shelf_1)``."""
    attrs = {**node.attributes.model_dump(exclude_none=True), **node.state.model_dump(exclude_none=True)}
    shown = ", ".join(f"{k} {str(v).lower() if isinstance(v, bool) else v}" for k, v in attrs.items())
    return f"{node.id} ({node.name}, {node.type}{'; ' + shown if shown else ''}{_where(graph, node)})"


def edge_line(edge: Edge) -> str:
    return f"{edge.source} {edge.relation} {edge.target}"


def graph_text(graph: SceneGraph) -> str:
    """The whole graph for the prompt (the no-retrieval ablation): one line per node, then one per edge."""
    lines = ["Nodes:", *(f"- {node_line(graph, n)}" for n in graph.nodes)]
    if graph.edges:
        lines += ["Edges:", *(f"- {edge_line(e)}" for e in graph.edges)]
    return "\n".join(lines)


def _text(value: Any) -> str | None:
    return None if value is None or value == "" else str(value)


def run_retrieval(graph: SceneGraph, name: str, arguments: dict[str, Any]) -> str:
    """What a retrieval call returns to the model. A bad argument is the model's mistake, answered as text
    (it may try again), not an episode failure."""
    try:
        if name == "retrieve_node":
            nodes = retrieve_node(
                graph,
                name=_text(arguments.get("name")),
                attr_key=_text(arguments.get("attr_key")),
                attr_val=_value(arguments.get("attr_val")),
            )
            if not nodes:
                return "No node matches."
            return f"{len(nodes)} node(s):\n" + "\n".join(node_line(graph, n) for n in nodes)
        relation = _text(arguments.get("relation"))
        if relation is not None and relation not in RELATIONS:
            return f"error: unknown relation {relation!r} (known: {', '.join(RELATIONS)})"
        found = retrieve_edge(graph, _text(arguments.get("source")), relation, _text(arguments.get("target")))  # type: ignore[arg-type]
        if not found:
            return "No edge matches."
        return f"{len(found)} edge(s):\n" + "\n".join(edge_line(e) for e in found)
    except ValueError as exc:
        return f"error: {exc}"


def parse_arguments(text: str | dict[str, Any]) -> dict[str, Any] | None:
    """A call's arguments (the tools API sends them as JSON text); None when they are not a JSON object."""
    if isinstance(text, dict):
        return text
    try:
        value = json.loads(text or "{}")
    except json.JSONDecodeError:
        return None
    return value if isinstance(value, dict) else None
