from __future__ import annotations

import json
import random

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


def test_an_edge_made_without_validation_is_the_validated_edge() -> None:
    """Edge.made fills the model directly (the sampler makes hundreds of thousands): it must be equal, hash
    equal and dump equal to the validated edge."""
    from ambiforge.models.scene_graph import Edge

    made, validated = (
        Edge.made("glass_mug", "left_of", "kettle"),
        Edge(source="glass_mug", relation="left_of", target="kettle"),
    )
    assert made == validated and hash(made) == hash(validated)
    assert made.model_dump() == validated.model_dump() and made.model_fields_set == validated.model_fields_set
    assert Edge.model_validate_json(made.model_dump_json()) == made
    moved = made.model_copy(update={"target": "fridge"})  # a copy with changes works as on any edge
    assert moved.target == "fridge" and made.target == "kettle" and "target" in moved.model_fields_set


def test_an_action_made_without_validation_is_the_validated_action() -> None:
    """Action.made fills the model directly (the plan builder makes one per step of every draft): equal,
    hash equal, dump equal and with the same fields set as the validated action; its fields are its own."""
    from ambiforge.models.action import Action

    fields = {"verb": "take_out", "obj": "whole_milk", "target": "fridge"}
    made, validated = Action.made(fields), Action(**fields)
    assert made == validated and hash(made) == hash(validated)
    assert made.model_dump_json() == validated.model_dump_json()
    assert made.model_fields_set == validated.model_fields_set == {"verb", "obj", "target"}
    fields["obj"] = "butter"
    assert made.obj == "whole_milk" and Action.made({"verb": "wait"}).obj is None
    assert made.model_copy(update={"obj": "butter"}).obj == "butter" and made.obj == "whole_milk"
    swapped = made.replaced({"obj": "oat_milk"})
    assert swapped == made.model_copy(update={"obj": "oat_milk"}) == Action(**{**fields, "obj": "oat_milk"})
    assert swapped.model_fields_set == {"verb", "obj", "target"} and made.obj == "whole_milk"
    assert Action.made({"verb": "pick", "obj": "a"}).replaced({"target": "b"}).model_fields_set == {
        "verb",
        "obj",
        "target",
    }
