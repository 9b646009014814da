"""Test helpers for a release's gzip-compressed JSON lines: read and rewrite them as a forger would, and turn a
release into the layout releases had before (plain data.jsonl and the AmbiK CSV files), which must verify."""

from __future__ import annotations

import gzip
import json
from pathlib import Path
from typing import Any

from ambiforge.ambik.csv_io import ambik_rows, columns_for, csv_lines
from ambiforge.models import Item
from ambiforge.releases.checksums import sha256_of
from ambiforge.releases.seal import integrity_section
from ambiforge.storage import read_records


def read_text(path: Path) -> str:
    return gzip.decompress(path.read_bytes()).decode("utf-8")


def write_text(path: Path, text: str) -> None:
    path.write_bytes(gzip.compress(text.encode("utf-8"), mtime=0))


def rows(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in read_text(path).splitlines() if line.strip()]


def to_legacy(folder: Path, raw_cells: bool = False) -> None:
    """data.jsonl.gz -> data.jsonl (environment/ too), ambik.csv and splits/<name>.csv written as the writer
    wrote them then (the default configuration's columns; formula cells as they are with ``raw_cells``), the
    manifest, card and seal brought up to date."""
    manifest = json.loads((folder / "manifest.json").read_text(encoding="utf-8"))
    for base in (folder, folder / "environment"):
        if (base / "data.jsonl.gz").exists():
            (base / "data.jsonl").write_text(read_text(base / "data.jsonl.gz"), encoding="utf-8")
            (base / "data.jsonl.gz").unlink()
    items = [Item.model_validate(r) for r in read_records(folder / "data.parquet")]
    columns = columns_for(items)
    by_id = {i.id: i for i in items}
    parts = {"ambik.csv": items}
    for name in manifest["counts"]["per_split"]:
        ids = [r["id"] for r in read_records(folder / "splits" / f"{name}.parquet")]
        parts[f"splits/{name}.csv"] = [by_id[i] for i in ids]
    for rel, part in parts.items():
        _, cells = ambik_rows(part, columns)
        header, lines = csv_lines(columns, cells, raw_cells=raw_cells)
        (folder / rel).write_text(header + "".join(lines), encoding="utf-8", newline="")
    listed = [e["path"].replace("data.jsonl.gz", "data.jsonl") for e in manifest["files"]]
    manifest["files"] = [{"path": p, "sha256": "", "bytes": 0} for p in [*listed, *parts]]
    for entry in manifest["files"]:
        if entry["path"] != "README.md":
            entry["sha256"], entry["bytes"] = sha256_of(folder / entry["path"]), (folder / entry["path"]).stat().st_size
    text = (folder / "README.md").read_text(encoding="utf-8")
    (folder / "README.md").write_text(text[: text.index("\n## Integrity")] + integrity_section(manifest))
    for entry in manifest["files"]:
        if entry["path"] == "README.md":
            entry["sha256"], entry["bytes"] = sha256_of(folder / "README.md"), (folder / "README.md").stat().st_size
    (folder / "manifest.json").write_text(json.dumps(manifest, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    (folder / "manifest.sha256").write_text(f"{sha256_of(folder / 'manifest.json')}  manifest.json\n")
