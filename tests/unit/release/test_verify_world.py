"""``ambiforge verify`` covers the world column: a forged graph (in data.parquet, where releases keep it, or in
a data.jsonl row that holds one, as older releases do), a claim naming a node the graph does not hold, and a
Parquet world struct that is not the item schema's are each one line naming file, row and key."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pyarrow as pa
import pyarrow.parquet as pq

from ambiforge.releases.jsonl_form import with_graphs
from ambiforge.releases.verify_rows import type_difference
from ambiforge.releases.verify_world import world_problem
from ambiforge.storage.arrow_schema import WORLD_TYPE, class_names_in, items_to_table, table_to_records
from tests.unit.release import gz
from tests.unit.release.test_verify import copy, fails, manifest_of, reseal, sealed  # noqa: F401 (fixtures)


def edit_world(folder: Path, row: int, edit: Any) -> None:
    """Change row ``row``'s world in data.jsonl.gz (``edit`` takes and changes the world dict), then reseal."""
    path = folder / "data.jsonl.gz"
    lines = gz.read_text(path).splitlines()
    record = json.loads(lines[row - 1])
    edit(record["world"])
    lines[row - 1] = json.dumps(record, ensure_ascii=False)
    gz.write_text(path, "\n".join(lines) + "\n")
    reseal(folder, manifest_of(folder))


def edit_parquet_world(folder: Path, row: int, edit: Any) -> None:
    """Change row ``row``'s world in data.parquet (``edit`` takes and changes the world dict), then reseal."""
    path = folder / "data.parquet"
    table = pq.read_table(path)
    records = table_to_records(table)
    edit(records[row - 1]["world"])
    pq.write_table(items_to_table(records, class_names_in(table.schema)), path, compression="zstd")
    reseal(folder, manifest_of(folder))


def test_every_released_row_has_a_world_that_holds_together(sealed: Path) -> None:  # noqa: F811
    records = gz.rows(sealed / "data.jsonl.gz")
    assert records and all(r["world"] is not None and "graph" not in r["world"] for r in records)
    parquet = table_to_records(pq.read_table(sealed / "data.parquet"))
    whole = [with_graphs(r, p) for r, p in zip(records, parquet, strict=True)]
    assert all(w["world"]["graph"]["nodes"] for w in whole)
    assert [world_problem(r) for r in whole] == [None] * len(records)


def test_a_candidate_that_is_not_a_node_is_named(copy: Path) -> None:  # noqa: F811
    edit_world(copy, 4, lambda w: w.update(candidates=[*w["candidates"], "golden_teapot"]))
    message = fails(copy, "data.jsonl.gz:4: world.candidates[")
    assert "node 'golden_teapot' is not in the item's graph" in message


def test_a_target_and_a_plan_argument_that_are_not_nodes_are_named(copy: Path) -> None:  # noqa: F811
    edit_world(copy, 2, lambda w: w.update(target="unicorn"))
    fails(copy, "data.jsonl.gz:2: world.target: node 'unicorn' is not in the item's graph")
    record = {
        "world": {**_world(copy, 3), "clear_plan": [{"verb": "open", "obj": "fridge"}, {"verb": "pick", "obj": "x"}]}
    }
    assert world_problem(record) == "world.clear_plan[1].obj: node 'x' is not in the item's graph"


def test_a_graph_with_a_duplicate_node_fails_the_graph_model(copy: Path) -> None:  # noqa: F811
    edit_parquet_world(copy, 6, lambda w: w["graph"]["nodes"].append(w["graph"]["nodes"][0]))
    fails(copy, "data.parquet:6: world.graph: ", "duplicate node id")


def test_an_edge_to_an_unknown_node_is_named(copy: Path) -> None:  # noqa: F811
    ghost = {"source": "ghost", "relation": "on", "target": "counter"}
    edit_parquet_world(copy, 1, lambda w: w["graph"]["edges"].append(ghost))
    fails(copy, "data.parquet:1: world.graph: ", "unknown node 'ghost'")


def test_a_forged_graph_in_a_jsonl_row_that_holds_one_is_named_there(copy: Path) -> None:  # noqa: F811
    """A row that holds its graph (as a release written before the graphs moved to Parquet) is checked as it is."""
    graph = _world(copy, 1)["graph"]
    forged = {**graph, "edges": [*graph["edges"], {"source": "ghost", "relation": "on", "target": "counter"}]}
    edit_world(copy, 1, lambda w: w.update(graph=forged))
    fails(copy, "data.jsonl.gz:1: world.graph: ", "unknown node 'ghost'")


def test_a_parquet_world_struct_that_is_not_the_schemas_is_named(copy: Path) -> None:  # noqa: F811
    """A world column rewritten as a JSON string, and one whose node attributes lost a field."""
    path = copy / "data.parquet"
    table = pq.read_table(path)
    k = table.schema.get_field_index("world")
    as_text = pa.array([json.dumps(w) for w in table.column("world").to_pylist()])
    pq.write_table(table.set_column(k, pa.field("world", pa.string()), as_text), path)
    reseal(copy, manifest_of(copy))
    fails(copy, "data.parquet: column world: type string, the item schema says struct<")

    node = WORLD_TYPE.field("graph").type.field("nodes").type.value_type
    attributes = node.field("attributes").type
    fewer = pa.struct([f for f in attributes if f.name != "colour"])
    assert type_difference(fewer, attributes, "world.graph.nodes[].attributes") == (
        "world.graph.nodes[].attributes: struct fields differ (missing colour)"
    )


def _world(folder: Path, row: int) -> dict[str, Any]:
    """Row ``row``'s whole world: the data.jsonl.gz row's, with its graph from data.parquet."""
    record = gz.rows(folder / "data.jsonl.gz")[row - 1]
    return with_graphs(record, table_to_records(pq.read_table(folder / "data.parquet"))[row - 1])["world"]
