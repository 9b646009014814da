"""The scene graph in words (the AmbiK CSV's ``environment_full``): places, rows and holders as the graph
says, nothing left out, and no description for a graph that does not know where things are."""

from __future__ import annotations

from ambiforge.catalog import Catalog
from ambiforge.generation.offline import OfflineGenerator
from ambiforge.models.scene_graph import Edge, SceneGraph
from ambiforge.world import nodes_only_graph
from ambiforge.world.describe import describe, describe_record
from tests.unit.world.conftest import MakeGraph


def test_places_rows_and_neighbours_in_sentences(make_graph: MakeGraph) -> None:
    graph = make_graph(
        {"glass mug": "shelf_1", "ceramic mug": "shelf_1", "whole milk": "fridge", "oven mitts": "drawer_2"},
        {"shelf_1": ["glass_mug", "ceramic_mug"]},
    )
    assert describe(graph) == (
        "The whole milk is in the fridge; on the upper shelf there is a glass mug next to a ceramic mug; "
        "the oven mitts are in the bottom drawer."
    )


def test_rows_front_first_left_to_right_and_objects_inside_objects(make_graph: MakeGraph) -> None:
    base = make_graph(
        {"glass mug": "counter", "ceramic mug": "counter", "teaspoon": "counter", "glass jar": "counter"},
        {},
    )
    # front row: jar, glass mug, ceramic mug (left to right); behind: the teaspoon, then moved into the jar
    rows = [
        Edge(source=a, relation=r, target=b)
        for a, r, b in [
            ("glass_jar", "left_of", "glass_mug"),
            ("glass_jar", "left_of", "ceramic_mug"),
            ("glass_mug", "left_of", "ceramic_mug"),
            ("teaspoon", "behind", "glass_jar"),
        ]
    ]
    graph = SceneGraph(nodes=base.nodes, edges=(*base.edges, *rows))
    assert describe(graph) == (
        "On the counter there is a glass jar, a glass mug and a ceramic mug, and behind them a teaspoon."
    )
    inside = [e for e in graph.edges if e.source != "teaspoon"] + [
        Edge(source="teaspoon", relation="inside", target="glass_jar")
    ]
    graph = SceneGraph(nodes=base.nodes, edges=tuple(inside))
    assert describe(graph) == (
        "On the counter there is a glass jar, a glass mug and a ceramic mug; the teaspoon is inside the glass jar."
    )


def test_every_object_of_a_sampled_graph_is_named_once(catalog: Catalog) -> None:
    gen = OfflineGenerator(catalog, 11, "t")
    for k, kind in enumerate(["preferences", "safety", "common_sense_knowledge"]):
        item = gen.generate(k, kind)[0]
        assert item.world is not None
        text = describe(item.world.graph)
        assert text is not None and text.endswith(".") and text[0].isupper()
        for node in item.world.graph.nodes:
            if node.type == "object":
                assert f" {node.name}" in f" {text}", node.name
        # a record's dict (a release row) reads the same
        assert describe_record(item.world.graph.model_dump(mode="json")) == text


def test_no_description_without_known_relations(catalog: Catalog) -> None:
    graph = nodes_only_graph([catalog.objects["glass mug"], catalog.objects["whole milk"]])
    assert describe(graph) is None
    assert describe_record(graph.model_dump(mode="json")) is None
