from __future__ import annotations

import os
import random
import subprocess
import sys

from ambiforge.catalog.world import cached_world
from ambiforge.config.sampler import SamplerConfig
from ambiforge.environment import sample_scene
from ambiforge.environment.sampler import Scene
from ambiforge.models.scene_graph import SPATIAL_RELATIONS, SceneGraph, check_consistent
from ambiforge.world.query import retrieve_edge
from ambiforge.world.sampler import build_graph, free_text_node, node_id, nodes_only_graph


def _scene(catalog, seed: int, include=()) -> Scene:
    return sample_scene(catalog, random.Random(seed), include=include)


def test_same_seed_same_bytes_and_another_seed_another_kitchen(catalog) -> None:
    scene = _scene(catalog, 11)
    first = build_graph(scene, 11).to_json()
    assert build_graph(_scene(catalog, 11), 11).to_json() == first
    assert build_graph(scene, 12).to_json() != first


def test_the_bytes_do_not_depend_on_the_process(catalog) -> None:
    """String hashing differs between processes; nothing in a graph may depend on it."""
    code = (
        "import random; from ambiforge.catalog import load_catalog; from ambiforge.environment import sample_scene;"
        "from ambiforge.world import build_graph; c = load_catalog();"
        "print(build_graph(sample_scene(c, random.Random(21)), 21).to_json())"
    )
    outputs = {
        subprocess.run(
            [sys.executable, "-c", code],
            env={**os.environ, "PYTHONHASHSEED": hash_seed},
            capture_output=True,
            text=True,
            check=True,
        ).stdout
        for hash_seed in ("1", "2")
    }
    assert outputs == {build_graph(_scene(catalog, 21), 21).to_json() + "\n"}


def test_the_sampler_makes_consistent_graphs_that_round_trip_through_json(catalog) -> None:
    """What build_graph makes is consistent and equal to the graph read back from its JSON, for many scenes
    and seeds."""
    for seed in range(200):
        graph = build_graph(_scene(catalog, seed, include=("mug",) if seed % 2 else ()), seed)
        check_consistent(graph.nodes, graph.edges, graph.relations_known)
        again = SceneGraph.model_validate_json(graph.to_json())
        assert again == graph and again.to_json() == graph.to_json()
        assert graph.model_fields_set == {"seed", "nodes", "edges"}
    assert graph.model_copy(update={"seed": 1}).seed == 1 and graph.seed == 199


def test_a_graphs_index_is_built_once_and_kept_with_the_graph(catalog) -> None:
    """index() builds a graph's tables once and keeps them with it (not in a table keyed by identity); a
    copy of the graph gets tables of its own, built from its own edges."""
    from ambiforge.world.index import _build, index

    graph = build_graph(_scene(catalog, 3), 3)
    first = index(graph)
    assert index(graph) is first and first.nodes is graph.nodes and first.edges is graph.edges
    assert list(first.location.items()) == list(_build(graph).location.items())
    copied = graph.model_copy(update={"edges": graph.edges[1:]})
    assert index(copied).edges is copied.edges and len(index(copied).location) <= len(first.location)
    assert index(graph).edges is graph.edges


def test_a_graph_with_its_tables_is_freed_without_the_cyclic_collector(catalog) -> None:
    """The tables a graph keeps do not point back at it: a graph (an item's, after the item is written) goes
    when its last reference does, not in a pass of the collector over every live object."""
    import weakref

    from ambiforge.generation.offline.referents import members
    from ambiforge.world import simulate
    from ambiforge.world.index import index

    graph = build_graph(_scene(catalog, 3), 3)
    index(graph)
    members(graph, "mug")
    simulate(graph, [])
    gone = weakref.ref(graph)
    del graph  # nothing between this and the check makes objects, so the collector cannot run in between
    assert gone() is None


def test_building_a_graph_does_not_move_the_scene_sampler(catalog) -> None:
    """The graph has its own random stream: the scenes (and so every item) of a seed stay what they were."""
    rng = random.Random(5)
    a = sample_scene(catalog, rng)
    build_graph(a, 5)
    b = sample_scene(catalog, rng)
    rng2 = random.Random(5)
    sample_scene(catalog, rng2)
    assert sample_scene(catalog, rng2).names() == b.names()


def test_every_kitchen_has_every_place_and_every_object_one_location(catalog) -> None:
    scene = _scene(catalog, 3)
    graph = build_graph(scene, 3)
    places = [n for n in graph.nodes if n.type == "place"]
    assert [p.id for p in places] == [p.id for p in cached_world().places]
    objects = [n for n in graph.nodes if n.type == "object"]
    assert [o.name for o in objects] == scene.names()
    for o in objects:
        assert len([e for e in retrieve_edge(graph, o.id) if e.relation in ("in", "on", "inside")]) == 1


def test_things_are_where_kitchens_keep_them(catalog) -> None:
    wanted = ["milks", "knives", "mugs", "frying pans", "apples", "yogurts"]
    for seed in range(8):
        graph = build_graph(_scene(catalog, seed, include=wanted), seed)
        where = {e.source: e.target for e in graph.edges if e.relation in ("in", "on")}
        for node in graph.nodes:
            if node.type != "object":
                continue
            place = where[node.id]
            if node.attributes.needs_refrigeration:
                assert place == "fridge", node.name
            elif node.group == "knives":
                assert place == "drawer_1"
            elif node.group == "mugs":
                assert place in ("shelf_1", "cupboard_1")
            elif node.group == "frying pans":
                assert place == "cupboard_2"
            elif node.group == "apples":
                assert place in ("counter", "kitchen_table")


def test_spatial_relations_hold_only_between_nodes_that_share_a_place(catalog) -> None:
    graph = build_graph(_scene(catalog, 9, include=["mugs", "apples"]), 9)
    where = {e.source: e.target for e in graph.edges if e.relation in ("in", "on", "inside")}
    spatial = [e for e in graph.edges if e.relation in SPATIAL_RELATIONS]
    assert spatial
    for e in spatial:
        assert where[e.source] == where[e.target], e
    pairs = {(e.source, e.relation, e.target) for e in spatial}
    for s, r, t in pairs:
        if r == "left_of":
            assert (t, "right_of", s) in pairs
        if r == "next_to":
            assert (t, "next_to", s) in pairs


def test_the_kettle_and_the_microwave_stand_in_the_counter_row(catalog) -> None:
    graph = build_graph(_scene(catalog, 4, include=["apples", "breads"]), 4)
    assert {(e.source, e.target) for e in graph.edges if e.relation == "on"} >= {
        ("tea_kettle", "counter"),
        ("microwave", "counter"),
    }
    assert retrieve_edge(graph, relation="left_of", target="tea_kettle") or retrieve_edge(
        graph, source="tea_kettle", relation="left_of"
    )


def test_a_crowded_place_gets_a_back_row(catalog) -> None:
    limits = SamplerConfig(food_groups=(5, 5), per_group=(5, 5))
    graph = build_graph(sample_scene(catalog, random.Random(2), limits, include=["milks", "juices"]), 2)
    behind = retrieve_edge(graph, relation="behind")
    assert behind
    assert all(e.target != e.source for e in behind)


def test_state_starts_closed_off_clean_and_cold_where_it_applies(catalog) -> None:
    graph = build_graph(_scene(catalog, 1, include=["milks", "mugs"]), 1)
    by_id = {n.id: n for n in graph.nodes}
    assert by_id["fridge"].state.open is False and by_id["fridge"].state.switched_on is None
    assert by_id["oven"].state.switched_on is False
    assert by_id["counter"].state.open is None
    mug = next(n for n in graph.nodes if n.group == "mugs")
    assert mug.state.full is False and mug.state.clean is (mug.name != "dirty ceramic mug")
    milk = next(n for n in graph.nodes if n.group == "milks")
    assert milk.state.temperature == "cold" and milk.state.full is None and milk.state.clean is None


def test_ids_are_readable(catalog) -> None:
    assert node_id("glass mug") == "glass_mug"
    assert node_id("chef's knife") == "chefs_knife"
    assert node_id("Y-peeler") == "y_peeler"


def test_imported_data_gets_a_nodes_only_graph(catalog) -> None:
    objects = [catalog.objects["glass mug"], catalog.objects["whole milk"]]
    graph = nodes_only_graph(objects)
    assert graph.relations_known is False and graph.edges == ()
    assert {"glass_mug", "whole_milk", "fridge"} <= {n.id for n in graph.nodes}


def test_a_layouts_index_started_from_the_worlds_places_is_the_index_built_from_scratch(catalog) -> None:
    """A layout's index starts from its world's place tables (shared by every kitchen): the tables are those
    of the whole graph, and building kitchens never changes the shared ones."""
    from ambiforge.world.index import _build, index
    from ambiforge.world.sampler import _placing, lay_out

    shared = _placing(cached_world()).place_tables

    def copied() -> list[dict[str, list[object]]]:
        return [{k: list(v) for k, v in t.items()} for t in (shared.by_name, shared.by_noun, shared.by_tail)]

    before = copied()
    places = _placing(cached_world()).place_nodes
    # an object called like a place: a key of the shared tables gets a second node
    odd = SceneGraph(relations_known=False, nodes=(*places, free_text_node("counter", "counter_2")))
    graphs = [odd, *(lay_out(_scene(catalog, seed, include=["mugs"]), seed).graph for seed in range(4))]
    for graph in graphs:
        built, scratch = index(graph, base=shared), _build(graph)
        assert (built.by_id, built.order) == (scratch.by_id, scratch.order)
        assert (built.by_name, built.by_noun, built.by_tail) == (scratch.by_name, scratch.by_noun, scratch.by_tail)
    assert [n.id for n in index(odd).by_name["counter"]] == ["counter", "counter_2"]
    assert copied() == before
