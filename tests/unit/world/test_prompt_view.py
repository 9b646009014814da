"""The kitchen map a prompt shows: every place with what it holds, and what tells look-alikes apart."""

from __future__ import annotations

from ambiforge.world import nodes_only_graph
from ambiforge.world.prompt_view import describe_node, prompt_view

KITCHEN = {
    "glass mug": "shelf_1",
    "dirty ceramic mug": "shelf_1",
    "whole milk": "fridge",
    "Y-peeler": "drawer_1",
}


def test_each_place_lists_its_objects_with_what_tells_them_apart(make_graph) -> None:
    graph = make_graph(KITCHEN, {"shelf_1": ["glass_mug", "dirty_ceramic_mug"]})
    lines = prompt_view(graph).splitlines()
    assert "fridge (closed): whole milk (cold)" in lines
    shelf = next(line for line in lines if line.startswith("upper shelf:"))
    assert shelf.index("glass mug") < shelf.index("dirty ceramic mug")
    assert "glass" in describe_node(graph.node("glass_mug"))
    assert "dirty" in describe_node(graph.node("dirty_ceramic_mug"))
    assert "top drawer (closed): Y-peeler" in "\n".join(lines)
    assert "oven (closed): nothing" in lines  # every place of the kitchen, empty ones too
    assert sum(1 for n in graph.nodes if n.type == "place") == len(lines)


def test_the_same_graph_gives_the_same_text(make_graph) -> None:
    assert prompt_view(make_graph(KITCHEN)) == prompt_view(make_graph(KITCHEN))


def test_a_graph_without_relations_says_where_things_are_is_not_known(catalog) -> None:
    graph = nodes_only_graph([catalog.objects["glass mug"], catalog.objects["whole milk"]])
    view = prompt_view(graph)
    assert view.startswith("Objects (where they are is not known):")
    assert "glass mug" in view and "whole milk" in view and "fridge" not in view
