"""A released row as ``data.jsonl.gz`` holds it: every field but the scene graphs, which live in the Parquet file.

Why: a kitchen's scene graph is about 95% of an item's JSON (40 KB an item, 399 MB beside an 11 MB Parquet
file at 10,000 items), while Parquet stores it once as a typed struct, compressed column by column. So
the JSON lines leave out ``world.graph`` and ``world.perturbation.graph`` and keeps everything else (the
world's claims as node ids included); :func:`with_graphs` puts them back from the row's Parquet record,
which is how ``verify`` and the changelog read a release (``docs/review-and-release.md``). A row that does
hold a graph (a release written before) is read as it is.
"""

from __future__ import annotations

from typing import Any


def jsonl_form(record: dict[str, Any]) -> dict[str, Any]:
    """``record`` without its scene graphs (a shallow copy where one is left out; ``record`` is unchanged)."""
    world = record.get("world")
    if not isinstance(world, dict) or "graph" not in world:
        return record
    kept = {k: v for k, v in world.items() if k != "graph"}
    perturbation = kept.get("perturbation")
    if isinstance(perturbation, dict) and "graph" in perturbation:
        kept["perturbation"] = {k: v for k, v in perturbation.items() if k != "graph"}
    return {**record, "world": kept}


def with_graphs(record: dict[str, Any], full: dict[str, Any] | None) -> dict[str, Any]:
    """``record`` (a data.jsonl row) with the scene graphs it leaves out taken from ``full`` (the same row of
    the Parquet file); a graph the row holds itself is kept, so a row and its Parquet record still compare."""
    world = record.get("world")
    source = (full or {}).get("world")
    if not isinstance(world, dict) or not isinstance(source, dict) or "graph" in world:
        return record
    merged = {**world, "graph": source.get("graph")}
    perturbation, theirs = merged.get("perturbation"), source.get("perturbation")
    if isinstance(perturbation, dict) and isinstance(theirs, dict) and "graph" not in perturbation:
        merged["perturbation"] = {**perturbation, "graph": theirs.get("graph")}
    return {**record, "world": merged}
