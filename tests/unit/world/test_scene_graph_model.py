from __future__ import annotations

import json
import pickle
import random
import re

import jsonschema_rs
import pytest
from pydantic import ValidationError

from ambiforge.environment import sample_scene
from ambiforge.models.scene_graph import Edge, Node, SceneGraph
from ambiforge.models.scene_graph_schema import (
    render_scene_graph_schema,
    repo_scene_graph_schema_path,
    scene_graph_json_schema,
)
from ambiforge.world.sampler import build_graph


def test_schema_file_matches_the_graph_model() -> None:
    """Drift check: regenerate schemas/scene_graph.schema.json from the model when it changes."""
    assert repo_scene_graph_schema_path().read_text(encoding="utf-8") == render_scene_graph_schema()


def test_sampled_graphs_validate_against_the_schema_and_round_trip(catalog) -> None:
    validator = jsonschema_rs.validator_for(scene_graph_json_schema())
    for seed in range(20):
        graph = build_graph(sample_scene(catalog, random.Random(seed)), seed)
        assert validator.is_valid(json.loads(graph.to_json()))
        assert SceneGraph.model_validate_json(graph.to_json()) == graph


def _place(pid: str, holds: str | None) -> Node:
    return Node(id=pid, type="place", name=pid, noun=pid, kind="surface", holds=holds)


def _obj(oid: str) -> Node:
    return Node(id=oid, type="object", name=oid, noun="mug", kind="kitchen_item")


@pytest.mark.parametrize(
    ("edges", "message"),
    [
        ([Edge(source="mug", relation="in", target="ghost")], "unknown node 'ghost'"),
        ([Edge(source="mug", relation="in", target="counter")], "'counter' does not hold things 'in'"),
        ([Edge(source="mug", relation="on", target="cup")], "'cup' does not hold things 'on'"),
        ([Edge(source="mug", relation="inside", target="counter")], "'inside' is for objects in objects"),
        (
            [Edge(source="mug", relation="on", target="counter"), Edge(source="mug", relation="inside", target="cup")],
            "node 'mug' has two locations",
        ),
        ([Edge(source="mug", relation="next_to", target="mug")], "relates to itself"),
    ],
)
def test_the_graph_refuses_edges_that_break_the_vocabulary(edges: list[Edge], message: str) -> None:
    with pytest.raises(ValidationError, match=message):
        SceneGraph(nodes=(_place("counter", "on"), _obj("mug"), _obj("cup")), edges=tuple(edges))


def test_ids_are_unique_readable_and_graphs_without_relations_have_no_edges() -> None:
    with pytest.raises(ValidationError, match="duplicate node id 'mug'"):
        SceneGraph(nodes=(_obj("mug"), _obj("mug")))
    with pytest.raises(ValidationError, match="id"):
        _obj("Glass Mug")
    with pytest.raises(ValidationError, match="relations are unknown"):
        SceneGraph(
            relations_known=False,
            nodes=(_place("counter", "on"), _obj("mug")),
            edges=(Edge(source="mug", relation="on", target="counter"),),
        )


def test_an_edge_is_checked_where_a_model_was() -> None:
    """An edge refuses a relation outside the vocabulary and a non-string end, and a graph read from JSON
    or dicts names the edge's field in its error; an Edge given to a graph is kept as it is."""

    with pytest.raises(ValidationError, match="relation"):
        Edge(source="mug", relation="under", target="counter")  # type: ignore[arg-type]
    with pytest.raises(ValidationError, match="source"):
        Edge(source=1, relation="on", target="counter")  # type: ignore[arg-type]
    nodes = (_place("counter", "on"), _obj("mug"))
    edge = Edge(source="mug", relation="on", target="counter")
    assert SceneGraph(nodes=nodes, edges=(edge,)).edges[0] is edge
    as_json = SceneGraph(nodes=nodes, edges=(edge,)).model_dump_json()
    assert '"edges":[{"source":"mug","relation":"on","target":"counter"}]' in as_json
    back = SceneGraph.model_validate_json(as_json)
    assert back.edges == (edge,) and type(back.edges[0]) is Edge
    assert type(SceneGraph.model_validate(json.loads(as_json)).edges[0]) is Edge
    for bad, where in (
        ({"source": "mug", "relation": "under", "target": "counter"}, "edges.0.relation"),
        ({"source": "mug", "relation": "on", "target": "counter", "x": 1}, "edges.0.x"),
        ({"source": 1, "relation": "on", "target": "counter"}, "edges.0.source"),
        (("mug", "on", "counter"), "edges.0"),  # a bare tuple is not an edge: its fields have no names
    ):
        with pytest.raises(ValidationError, match=re.escape(where)):
            SceneGraph.model_validate({"nodes": [n.model_dump() for n in nodes], "edges": [bad]})
    with pytest.raises(ValidationError, match=re.escape("edges.0.relation")):
        SceneGraph.model_validate_json(as_json.replace('"relation":"on"', '"relation":"under"'))


def test_graphs_with_edges_pickle_and_copy() -> None:
    """Prefect and multiprocessing pickle items: an edge comes back an Edge with its fields, a graph equal."""
    import copy
    import pickle

    graph = SceneGraph(
        nodes=(_place("counter", "on"), _obj("mug")), edges=(Edge(source="mug", relation="on", target="counter"),)
    )
    for again in (pickle.loads(pickle.dumps(graph)), copy.deepcopy(graph), graph.model_copy(deep=True)):
        assert again == graph and type(again.edges[0]) is Edge and again.edges[0].target == "counter"


def test_an_action_with_other_nodes_is_validated_and_keeps_its_fields() -> None:
    """``replaced`` (the plan under another answer) changes node ids only: the original stays as it was,
    the copy has the fields set that the original had plus the changed ones, and it is validated."""
    from ambiforge.models.action import Action

    fields = {"verb": "take_out", "obj": "whole_milk", "target": "fridge"}
    action = Action(**fields)
    swapped = action.replaced({"obj": "oat_milk"})
    assert swapped == Action(**{**fields, "obj": "oat_milk"}) and action.obj == "whole_milk"
    assert swapped.model_fields_set == {"verb", "obj", "target"}
    assert Action(verb="pick", obj="a").replaced({"target": "b"}).model_fields_set == {"verb", "obj", "target"}
    with pytest.raises(ValidationError, match="needs obj, target"):
        Action(verb="take_out")


def test_every_verb_of_the_table_is_validated_said_and_simulated() -> None:
    """The verb table is the one definition of a verb: an action missing a field its entry requires is
    refused, naming the field; every verb renders to a step and has a simulator effect."""
    from ambiforge.models.action import VERBS, Action
    from ambiforge.world.actions import render_action
    from ambiforge.world.simulator import HANDLERS

    for verb, spec in VERBS.items():
        if spec.required:
            with pytest.raises(ValidationError, match=f"{verb} needs {', '.join(spec.required)}"):
                Action(verb=verb)
        full = Action(verb=verb, **{f: "mug" for f in spec.required})
        said = render_action(full)
        assert said[:1].isupper() and ("mug" in said or verb == "wait")
        assert verb in HANDLERS


def test_a_nodes_json_record_is_its_dump_a_fresh_copy_each_time_and_follows_copies() -> None:
    """The JSON form a node keeps for records is its dump; a copy with another id records that id."""
    mug = Node(id="mug", type="object", name="mug", noun="mug", kind="kitchen_item", tags=("cup",))
    first = mug.json_record()
    assert first == mug.model_dump(mode="json")
    first["tags"].append("changed")
    first["state"]["clean"] = False
    assert mug.json_record() == mug.model_dump(mode="json")
    other = mug.model_copy(update={"id": "mug_2"})
    assert other.json_record()["id"] == "mug_2" and mug.json_record()["id"] == "mug"
    graph = SceneGraph(nodes=(_place("counter", "on"), mug, other))
    assert json.dumps(graph.json_record()) == json.dumps(graph.model_dump(mode="json"))
    fresh = Node(id="mug", type="object", name="mug", noun="mug", kind="kitchen_item", tags=("cup",))
    assert pickle.dumps(mug) == pickle.dumps(fresh)  # a pickle carries the fields only
    assert pickle.loads(pickle.dumps(mug)).json_record() == mug.model_dump(mode="json")


def test_edges_given_as_arguments_are_validated_as_edges() -> None:
    """The sampler hands a graph its new edges as ``Edge(*triple)`` arguments: they are checked as edges."""
    from pydantic_core import ArgsKwargs

    nodes = (_place("counter", "on"), _obj("mug"))
    graph = SceneGraph.model_validate({"nodes": nodes, "edges": [ArgsKwargs(("mug", "on", "counter"))]})
    assert graph.edges == (Edge(source="mug", relation="on", target="counter"),)
    for bad in (("mug", "under", "counter"), ("mug", "on", 3), ("mug", "on", "counter", "extra")):
        with pytest.raises(ValidationError):
            SceneGraph.model_validate({"nodes": nodes, "edges": [ArgsKwargs(bad)]})
