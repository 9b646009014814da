"""The card describes the world column: the graph, the relation vocabulary (the model's, word for word),
the claims, nodes-only graphs of imported rows, and the ambiguity_type encoding; its example keeps the
graph short."""

from __future__ import annotations

import json

import pyarrow.parquet as pq

from ambiforge.models.scene_graph import RELATIONS
from ambiforge.releases.card import RELATION_MEANINGS, WORLD_SUBFIELDS, example_instance
from ambiforge.releases.jsonl_form import with_graphs
from ambiforge.storage.arrow_schema import table_to_records
from tests.unit.release import gz
from tests.unit.release.test_release import two_releases  # noqa: F401 (fixture)


def test_the_card_lists_every_relation_of_the_vocabulary() -> None:
    assert tuple(RELATION_MEANINGS) == RELATIONS


def test_the_card_describes_the_world_and_the_type_encoding(two_releases) -> None:  # type: ignore[no-untyped-def]  # noqa: F811
    _, v1, _, _, _ = two_releases
    text = (v1 / "README.md").read_text()
    world = text[text.index("## The world") : text.index("## How it was built")]
    for relation in RELATIONS:
        assert f"| `{relation}` |" in world
    for claim in ("world.target", "world.candidates", "world.fitting", "world.clear_plan", "nodes-only graph"):
        assert claim in world
    assert "relations_known: false" in world
    fields = text[text.index("## Fields") : text.index("## Statistics")]
    for name, _ in WORLD_SUBFIELDS:
        assert f"| `{name}` |" in fields
    assert "| `world` | the item's kitchen as a scene graph" in fields
    assert "`ambiguity_type` is stored as its name in every file" in text and "class index" not in text
    assert "len(world.graph.nodes)" in text
    assert "are in the Parquet files only" in text


def test_the_example_cuts_the_graph_to_the_claimed_nodes(two_releases) -> None:  # type: ignore[no-untyped-def]  # noqa: F811
    _, v1, _, _, _ = two_releases
    row = gz.rows(v1 / "data.jsonl.gz")[0]
    assert "graph" not in row["world"]  # the graphs are in the Parquet files only
    record = with_graphs(row, table_to_records(pq.read_table(v1 / "data.parquet"))[0])
    graph = record["world"]["graph"]
    shown = json.loads(example_instance(record))["world"]
    nodes = [n for n in shown["graph"]["nodes"] if isinstance(n, dict)]
    claimed = set(record["world"]["candidates"]) | {record["world"]["target"]} | set(record["world"]["fitting"])
    assert 1 <= len(nodes) <= 2 and (not claimed - {None} or {n["id"] for n in nodes} <= claimed)
    assert shown["graph"]["nodes"][-1] == f"... {len(graph['nodes']) - len(nodes)} more nodes"
    assert shown["graph"]["edges"][-1].endswith("more edges") and len(shown["graph"]["edges"]) <= 3
    assert shown["target"] == record["world"]["target"] and shown["candidates"] == record["world"]["candidates"]
    card = (v1 / "README.md").read_text()
    assert len(card) < 40_000  # the full graph would add some 40 KB
