"""The AmbiK CSV and the world: an imported row gets a nodes-only graph (every object a node, relations
unknown, the claims as node ids where the row names its objects); an export says where things are when the
item's graph knows it, and keeps the row's text otherwise."""

from __future__ import annotations

import csv
import json
from pathlib import Path

import jsonschema

from ambiforge.ambik.csv_io import AMBIK_COLUMNS, read_ambik_csv, write_ambik_csv
from ambiforge.catalog import Catalog
from ambiforge.resources import schema_path
from ambiforge.world.describe import describe
from tests.unit.release.test_release import make_items

ROW = {
    "id": "7",
    "environment_short": "glass mug, ceramic mug, whole milk, dish rack, toasted bread",
    "environment_full": "a glass mug, a ceramic mug, whole milk, a dish rack, toasted bread",
    "unambiguous_direct": "Pour the whole milk into the ceramic mug.",
    "ambiguity_type": "preferences",
    "amb_shortlist": "glass mug, ceramic mug, teacup",
    "ambiguous_task": "Pour the whole milk into a mug.",
    "question": "Which mug?",
    "answer": "The ceramic one.",
    "plan_for_clear_task": "1. Take the ceramic mug.\n2. Pour the milk.",
    "plan_for_amb_task": "1. Take the mug.\n2. Pour the milk.",
    "end_of_ambiguity": "0",
    "user_intent": "ceramic mug",
    "variants": "",
}


def write_csv(path: Path, rows: list[dict[str, str]]) -> Path:
    with path.open("w", encoding="utf-8", newline="") as fh:
        writer = csv.DictWriter(fh, fieldnames=list(AMBIK_COLUMNS))
        writer.writeheader()
        writer.writerows(rows)
    return path


def column(path: Path, name: str) -> list[str]:
    with path.open(encoding="utf-8", newline="") as fh:
        return [row[name] for row in csv.DictReader(fh)]


def test_an_imported_row_gets_a_nodes_only_graph_with_its_claims(tmp_path: Path, catalog: Catalog) -> None:
    safety = ROW | {
        "id": "8",
        "ambiguity_type": "safety",
        "amb_shortlist": "",
        "variants": "glass mug, ceramic mug, a mug of gold",
        "unambiguous_direct": "Warm the milk in a mug in the microwave.",
    }
    first, second = read_ambik_csv(write_csv(tmp_path / "a.csv", [ROW, safety]), catalog)
    assert first.world is not None and second.world is not None
    graph = first.world.graph
    assert graph.relations_known is False and graph.edges == ()
    objects = {n.name: n for n in graph.nodes if n.type == "object"}
    assert list(objects) == ["glass mug", "ceramic mug", "whole milk", "dish rack", "toasted bread"]
    # catalog objects carry their attributes; a name the catalog lacks is a node with its last word as noun
    assert objects["glass mug"].attributes.material == "glass" and objects["glass mug"].group is not None
    assert "dish rack" not in catalog.objects and objects["dish rack"].noun == "rack"
    assert objects["dish rack"].kind == "unknown" and objects["dish rack"].group is None
    schema = json.loads(schema_path("scene_graph.schema.json").read_text())
    jsonschema.validate(graph.model_dump(mode="json"), schema)

    # preferences: the shortlist's objects in the scene (the teacup is not), the target the clear task names
    assert first.world.candidates == ["glass_mug", "ceramic_mug"]
    assert first.world.fitting == [] and first.world.target == "ceramic_mug" and first.world.clear_plan == []
    # safety: the variants that are objects of the scene; the clear task names none of them
    assert second.world.fitting == ["glass_mug", "ceramic_mug"] == second.world.candidates
    assert second.world.target is None


def test_an_export_says_where_things_are_when_the_graph_knows(tmp_path: Path, catalog: Catalog) -> None:
    items = make_items(catalog, 3, 4, "run-w")
    bare = items[3].model_copy(update={"id": "no-world", "world": None})
    path = write_ambik_csv([*items[:3], bare], tmp_path / "out.csv")
    full = column(path, "environment_full")
    assert full[:3] == [describe(i.world.graph) for i in items[:3]]  # type: ignore[union-attr]
    assert all(" is in the " in text or " are in the " in text or "there is" in text for text in full[:3])
    assert full[3] == bare.environment_full  # no graph: the list of names as before

    imported = read_ambik_csv(write_csv(tmp_path / "in.csv", [ROW]), catalog)
    again = write_ambik_csv(imported, tmp_path / "again.csv")
    assert column(again, "environment_full") == [ROW["environment_full"]]  # nodes only: the row's own text
