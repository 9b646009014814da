from __future__ import annotations

from pathlib import Path

import pytest

from ambiforge.catalog import APPLIANCES, load_catalog
from ambiforge.errors import CatalogError

GOOD_HEADER = """
version: "t1"
appliances:
  - {name: fridge}
  - {name: oven}
  - {name: kitchen table}
  - {name: microwave}
  - {name: dishwasher}
  - {name: sink}
  - {name: tea kettle}
groups:
"""


def write(tmp_path: Path, body: str, header: str = GOOD_HEADER) -> Path:
    p = tmp_path / "cat.yaml"
    p.write_text(header + body)
    return p


MUGS = """
  mugs:
    kind: kitchen_item
    noun: mug
    objects:
      - {name: glass mug, material: glass}
      - {name: ceramic mug, material: ceramic}
      - {name: metal mug, material: metal}
"""


def test_packaged_catalog_meets_the_size_and_attribute_requirements(catalog) -> None:
    assert len(catalog.objects) >= 320
    assert len(catalog.groups) >= 60
    assert {a.name for a in catalog.appliances} == set(APPLIANCES)
    assert {g.kind for g in catalog.groups.values()} == {"food", "kitchen_item"}
    for group in catalog.groups.values():
        assert len(group.objects) >= 3, group.key
        for obj in group.objects:
            assert obj.noun == group.noun
            if obj.kind == "kitchen_item":
                assert obj.material, obj.name
                assert obj.sharp is not None, obj.name  # safety attributes may be null: product-dependent
            elif obj.needs_refrigeration is None:
                # kept in the fridge or the cupboard as households differ: only condiments (hot sauce)
                assert "condiment" in obj.tags, obj.name
    assert catalog.objects["glass mug"].modifier == "glass"
    assert catalog.objects["metal bowl"].microwave_safe is False
    assert catalog.objects["chef's knife"].sharp is True
    assert catalog.objects["butter knife"].sharp is False
    assert catalog.objects["dirty ceramic plate"].clean is False


def test_the_safety_facts_hold_of_real_products(catalog) -> None:  # type: ignore[no-untyped-def]
    """A safety item asserts the attribute it rests on: paper cups are made for hot drinks, silicone goes in
    the oven; where it depends on the product (a nonstick pan in the oven), the catalog says neither."""
    objects = catalog.objects
    assert objects["paper cup"].heat_resistant is not False
    assert objects["silicone container"].oven_safe is True
    assert objects["silicone baking dish"].oven_safe is True
    assert objects["plastic cup"].heat_resistant is False
    assert objects["metal bowl"].microwave_safe is False
    for name in ("nonstick pan", "glass bowl", "glass container", "plastic container", "plastic mug", "glass cup"):
        obj = objects[name]
        assert None in (obj.oven_safe, obj.microwave_safe, obj.heat_resistant), name


def test_a_small_valid_catalog_loads(tmp_path: Path) -> None:
    cat = load_catalog(write(tmp_path, MUGS))
    assert list(cat.objects) == ["glass mug", "ceramic mug", "metal mug"]
    assert cat.sha256 and cat.version == "t1"


@pytest.mark.parametrize(
    ("body", "entry", "message"),
    [
        (
            MUGS + "      - {name: glass mug}\n",
            "groups.mugs.objects[3] (glass mug)",
            "duplicate object name, first defined at groups.mugs.objects[0] (glass mug)",
        ),
        (
            MUGS.replace("{name: metal mug, material: metal}", "{name: metal mug, colour: grey}"),
            "groups.mugs.objects[2] (metal mug)",
            "unknown attribute 'colour'",
        ),
        (
            MUGS.replace("      - {name: metal mug, material: metal}\n", ""),
            "groups.mugs",
            "has 2 object(s); a group needs at least 3",
        ),
        (
            MUGS.replace("{name: metal mug, material: metal}", "{name: metal mug, sharp: maybe}"),
            "groups.mugs.objects[2] (metal mug)",
            "attribute 'sharp' must be true or false",
        ),
        (MUGS.replace("kind: kitchen_item", "kind: tool"), "groups.mugs", "'kind' must be one of"),
        (MUGS.replace("    noun: mug\n", ""), "groups.mugs", "missing 'noun'"),
    ],
)
def test_catalog_errors_name_file_and_entry(tmp_path: Path, body: str, entry: str, message: str) -> None:
    path = write(tmp_path, body)
    with pytest.raises(CatalogError) as exc:
        load_catalog(path)
    text = str(exc.value)
    assert text.startswith(f"{path}: {entry}: ")
    assert message in text


def test_missing_fixed_appliance_is_reported(tmp_path: Path) -> None:
    path = write(tmp_path, MUGS, GOOD_HEADER.replace("  - {name: sink}\n", ""))
    with pytest.raises(CatalogError, match=r"appliances: missing fixed appliance\(s\): sink"):
        load_catalog(path)


def test_yaml_syntax_error_names_the_line(tmp_path: Path) -> None:
    path = write(tmp_path, MUGS + "    objects: [unclosed\n")
    with pytest.raises(CatalogError, match=r"cat.yaml: line \d+: not valid YAML"):
        load_catalog(path)


def test_missing_file_is_a_catalog_error(tmp_path: Path) -> None:
    with pytest.raises(CatalogError, match="file: catalog not found"):
        load_catalog(tmp_path / "nope.yaml")


def test_only_food_people_bake_is_bakeable(catalog) -> None:  # type: ignore[no-untyped-def]
    """r068: 'cook the ground beef' is not the oven by common sense (it is browned in a pan)."""
    for name in ("ground beef", "beef steak", "lamb chop", "tuna steak"):
        assert "bakeable" not in catalog.objects[name].uses, name
    for name in ("chicken breast", "pork chop", "salmon fillet"):
        assert "bakeable" in catalog.objects[name].uses, name
