from __future__ import annotations

from pathlib import Path

import pytest

from ambiforge.catalog.affordances import load_affordances
from ambiforge.catalog.world import load_world
from ambiforge.errors import CatalogError

WORLD = Path(__file__).resolve().parents[3] / "ambiforge" / "catalog" / "world.yaml"
AFFORDANCES = WORLD.with_name("affordances.yaml")


def test_the_packaged_files_load_and_name_only_what_the_catalog_has(catalog) -> None:
    world = load_world(catalog=catalog)
    assert {p.name for p in world.places} >= {
        "fridge", "oven", "kitchen table", "microwave", "dishwasher", "sink", "tea kettle", "counter"
    }  # fmt: skip
    assert {p.noun for p in world.places} >= {"shelf", "cupboard", "drawer"}
    assert {p.id for p in world.places if p.openable} >= {"fridge", "cupboard_1", "drawer_1"}
    assert "peel" in load_affordances(catalog=catalog).actions


def test_every_catalog_object_has_a_placement_rule(catalog) -> None:
    """The default place is a safety net, not a decision: a new group needs a rule saying where it is kept."""
    world = load_world(catalog=catalog)
    assert [o.name for o in catalog.objects.values() if not any(r.when.matches(o) for r in world.placement)] == []


def _broken(tmp_path: Path, source: Path, old: str, new: str) -> Path:
    text = source.read_text(encoding="utf-8")
    assert old in text
    out = tmp_path / source.name
    out.write_text(text.replace(old, new, 1), encoding="utf-8")
    return out


@pytest.mark.parametrize(
    ("old", "new", "message"),
    [
        ("places: [fridge]}", "places: [pantry]}", r"world.yaml: placement\[0\].places: unknown place 'pantry'"),
        ("{id: shelf_1,", "{id: Shelf 1,", r"world.yaml: places\[8\].id: must be lower-case"),
        ('noun: counter, kind: surface, holds: "on"', "noun: counter, kind: surface, holds: on", "must be 'in' or"),
        ("group: ice creams", "group: ice cream", r"placement\[1\].when.where.group: unknown group 'ice cream'"),
        ("tags_any: [cutlery]", "tags_any: [cutlry]", r"placement\[2\].when.tags_any: no catalog object has"),
        ("where: {needs_refrigeration: true}", "where: {chilled: true}", "unknown catalog attribute 'chilled'"),
        ("row_width: 4", "row_width: 0", "layout.row_width: must be a whole number"),
        ("{id: sink, name: sink,", "{id: sink, name: basin,", "places: missing fixed appliance.*sink"),
        ("set: {colour: pink}", "set: {size: huge}", r"attributes\[3\].set.size: must be one of"),
    ],
)
def test_a_broken_world_file_is_one_line_naming_file_and_key(catalog, tmp_path, old, new, message) -> None:
    with pytest.raises(CatalogError, match=message) as err:
        load_world(_broken(tmp_path, WORLD, old, new), catalog=catalog)
    assert "\n" not in str(err.value)


@pytest.mark.parametrize(
    ("old", "new", "message"),
    [
        ("{where: {group: peelers}}", "{where: {group: peeler}}", r"actions.peel.any\[0\].where.group: unknown group"),
        ("  grate:\n    description", "  grate:\n    descripton", r"affordances.yaml: actions.grate: unknown key"),
        ("{where: {group: graters}}", "{wher: {group: graters}}", r"actions.grate.any\[0\]"),
    ],
)
def test_a_broken_affordance_file_is_one_line_naming_file_and_key(catalog, tmp_path, old, new, message) -> None:
    with pytest.raises(CatalogError, match=message) as err:
        load_affordances(_broken(tmp_path, AFFORDANCES, old, new), catalog=catalog)
    assert "\n" not in str(err.value)


def test_an_unknown_action_names_the_known_ones() -> None:
    with pytest.raises(CatalogError, match="unknown action 'juggle' .*peel"):
        load_affordances().get("juggle")
