from __future__ import annotations

import pytest
from pydantic import ValidationError

from ambiforge.world.query import Expression, RelationConstraint, resolve, retrieve_edge, retrieve_node

KITCHEN = {
    "glass mug": "shelf_1",
    "ceramic mug": "counter",
    "metal mug": "shelf_1",
    "whole milk": "fridge",
    "oat milk": "counter",
    "metal bowl": "counter",
    "ceramic bowl": "cupboard_1",
    "Y-peeler": "drawer_1",
    "microplane grater": "drawer_1",
}
ROWS = {"counter": ["ceramic_mug", "tea_kettle", "oat_milk", "metal_bowl"], "shelf_1": ["glass_mug", "metal_mug"]}


@pytest.fixture
def graph(make_graph):
    return make_graph(KITCHEN, ROWS)


def ids(nodes) -> list[str]:
    return [n.id for n in nodes]


def test_a_noun_picks_every_node_of_it_and_a_name_one(graph) -> None:
    assert ids(resolve(graph, "mug")) == ["glass_mug", "ceramic_mug", "metal_mug"]
    assert ids(resolve(graph, "mugs")) == ["glass_mug", "ceramic_mug", "metal_mug"]
    assert ids(resolve(graph, "glass mug")) == ["glass_mug"]
    assert ids(resolve(graph, "peeler")) == ["y_peeler"]
    assert ids(resolve(graph, "grater")) == ["microplane_grater"]
    assert ids(resolve(graph, "kettle")) == ["tea_kettle"]
    assert ids(resolve(graph, "cupboard")) == ["cupboard_1", "cupboard_2"]
    assert ids(resolve(graph, "shelves")) == ["shelf_1", "shelf_2"]
    assert ids(resolve(graph, "bowls")) == ["metal_bowl", "ceramic_bowl"]
    assert resolve(graph, "kitchen scale") == []


def test_attributes_narrow_the_referent(graph) -> None:
    assert ids(resolve(graph, Expression(noun="mug", attributes={"material": "metal"}))) == ["metal_mug"]
    assert ids(resolve(graph, Expression(noun="bowl", attributes={"material": "metal"}))) == ["metal_bowl"]
    assert ids(resolve(graph, Expression(noun="mug", attributes={"microwave_safe": True}))) == [
        "glass_mug",
        "ceramic_mug",
    ]
    assert ids(resolve(graph, Expression(noun="milk", attributes={"temperature": "cold"}))) == [
        "whole_milk",
        "oat_milk",
    ]
    assert ids(resolve(graph, Expression(type="place", attributes={"open": False}))) == [
        "fridge", "oven", "microwave", "dishwasher", "cupboard_1", "cupboard_2", "drawer_1", "drawer_2",
    ]  # fmt: skip


def test_relations_narrow_the_referent(graph) -> None:
    left_of_kettle = Expression(
        noun="mug", relations=(RelationConstraint(relation="left_of", target=Expression(noun="kettle")),)
    )
    assert ids(resolve(graph, left_of_kettle)) == ["ceramic_mug"]
    in_fridge = Expression(
        noun="milk", relations=(RelationConstraint(relation="in", target=Expression(name="fridge")),)
    )
    assert ids(resolve(graph, in_fridge)) == ["whole_milk"]
    on_a_shelf = Expression(noun="mug", relations=(RelationConstraint(relation="on", target=Expression(noun="shelf")),))
    assert ids(resolve(graph, on_a_shelf)) == ["glass_mug", "metal_mug"]
    next_to_milk = Expression(relations=(RelationConstraint(relation="next_to", target=Expression(noun="milk")),))
    assert ids(resolve(graph, next_to_milk)) == ["tea_kettle", "metal_bowl"]
    right_of_metal_bowl = Expression(
        noun="mug", relations=(RelationConstraint(relation="right_of", target=Expression(name="metal bowl")),)
    )
    assert resolve(graph, right_of_metal_bowl) == []


def test_an_expression_refuses_unknown_attributes() -> None:
    with pytest.raises(ValidationError, match="unknown attribute 'shiny'"):
        Expression(noun="mug", attributes={"shiny": True})


def test_retrieve_node_by_name_or_attribute(graph) -> None:
    assert ids(retrieve_node(graph, "glass mug")) == ["glass_mug"]
    assert ids(retrieve_node(graph, "whole_milk")) == ["whole_milk"]
    assert ids(retrieve_node(graph, attr_key="material", attr_val="ceramic")) == ["ceramic_mug", "ceramic_bowl"]
    assert ids(retrieve_node(graph, "mug", attr_key="material", attr_val="glass")) == ["glass_mug"]
    with pytest.raises(ValueError, match="needs a name or an attribute"):
        retrieve_node(graph)
    with pytest.raises(ValueError, match="unknown attribute 'shiny'"):
        retrieve_node(graph, attr_key="shiny", attr_val=True)


def test_retrieve_edge_by_source_relation_target(graph) -> None:
    assert [(e.relation, e.target) for e in retrieve_edge(graph, "whole milk", "in")] == [("in", "fridge")]
    assert {e.source for e in retrieve_edge(graph, relation="in", target="drawer_1")} == {
        "y_peeler",
        "microplane_grater",
    }
    assert [e.target for e in retrieve_edge(graph, "ceramic mug", "next_to")] == ["tea_kettle"]
    assert retrieve_edge(graph, "whole milk", "on") == []
