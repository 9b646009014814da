"""A scene graph as a model reads it in a prompt: one line per place, its objects with the attributes and
states that tell look-alikes apart (material, colour, size, dirty, full, cold/hot), doors open or closed.

A model that sees where things are and what they are made of can write tasks that pick out one object and
plans that open the fridge before taking the milk out; what it writes back is resolved against the same
graph (``ambiforge.generation.llm``), so the view names every node by its node name, exactly. Plain text,
not JSON: a few hundred tokens for a 50-object kitchen, in the graph's own (seeded) order.
"""

from __future__ import annotations

from ambiforge.models.scene_graph import LOCATION_RELATIONS, Node, SceneGraph


def _details(node: Node) -> list[str]:
    a, s = node.attributes, node.state
    out = [v for v in (a.size, a.colour, a.material) if v]
    if s.clean is False:
        out.append("dirty")
    if s.full:
        out.append("full")
    if s.temperature in ("cold", "hot"):
        out.append(str(s.temperature))
    if s.open is not None:
        out.append("open" if s.open else "closed")
    if s.switched_on:
        out.append("on")
    return out


def describe_node(node: Node) -> str:
    """``glass mug (glass)``, ``fridge (closed)``: the node's name and what tells it apart."""
    details = _details(node)
    return f"{node.name} ({', '.join(details)})" if details else node.name


def prompt_view(graph: SceneGraph) -> str:
    """The graph as lines ``<place>: <object>, <object>`` (objects held inside another object follow it as
    ``containing ...``; an appliance standing on the counter is named there by name, its states on its own
    line). A graph whose relations are unknown is one line of objects, said so."""
    objects = [n for n in graph.nodes if n.type == "object"]
    if not graph.relations_known:
        names = ", ".join(describe_node(n) for n in objects) or "nothing"
        return f"Objects (where they are is not known): {names}"
    located: dict[str, list[Node]] = {}
    for edge in graph.edges:
        if edge.relation in LOCATION_RELATIONS:
            located.setdefault(edge.target, []).append(graph.node(edge.source))
    order = {n.id: i for i, n in enumerate(graph.nodes)}
    for held in located.values():
        held.sort(key=lambda n: order[n.id])

    def entry(node: Node) -> str:
        inner = located.get(node.id, [])
        text = describe_node(node)
        return f"{text} containing {', '.join(entry(n) for n in inner)}" if inner else text

    lines = []
    for place in (n for n in graph.nodes if n.type == "place"):
        held = [entry(n) if n.type == "object" else n.name for n in located.get(place.id, [])]
        lines.append(f"{describe_node(place)}: {', '.join(held) if held else 'nothing'}")
    return "\n".join(lines)
