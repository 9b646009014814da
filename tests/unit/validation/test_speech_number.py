"""Determiners read against a scene's names: the longest name after a word is the one it goes with, a name
only counts whole (not inside a longer word), and across any whitespace."""

from __future__ import annotations

from ambiforge.models.scene_graph import Node
from ambiforge.validation.reader.speech import number_problems


def _node(ref: str, name: str, *, kind: str = "food", mass: bool = False, plural: bool = False) -> Node:
    return Node(id=ref, type="object", name=name, noun=name.split()[-1], kind=kind, mass=mass, plural=plural)


SCENE = [
    _node("coffee", "coffee", mass=True),
    _node("coffee_maker", "coffee maker", kind="kitchen_item"),
    _node("cherry_tomatoes", "cherry tomatoes", plural=True),
    _node("mug", "mug", kind="kitchen_item"),
]


def test_the_longest_name_after_a_determiner_is_read() -> None:
    assert number_problems("Fill a coffee maker with water.", SCENE) == []
    assert number_problems("Pour a coffee for me.", SCENE) == ["'a coffee': 'a' before a mass name"]


def test_determiners_out_of_number_are_named_as_written() -> None:
    found = number_problems("Wash This cherry tomatoes and those mug.", SCENE)
    assert found == [
        "'This cherry tomatoes': a singular determiner before a plural name",
        "'those mug': a plural determiner before a singular name",
    ]


def test_a_name_inside_a_longer_word_is_not_read() -> None:
    assert number_problems("Take those mugs and a coffee-stained cloth.", SCENE) == []
    assert number_problems("Take a mug's handle.", SCENE) == []


def test_a_determiner_and_its_name_may_be_split_across_lines() -> None:
    assert number_problems("Rinse those\nmug", SCENE) == ["'those\\nmug': a plural determiner before a singular name"]
