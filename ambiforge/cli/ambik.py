"""``ambiforge import-ambik`` and ``export-ambik``: the published AmbiK CSV layout in and out."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from ambiforge.cli.common import console
from ambiforge.errors import ConfigError


def check_output_file(path: Path, option: str) -> None:
    """A file to write: not a folder, and its folder (if it exists) is a folder."""
    if path.is_dir():
        raise ConfigError(f"{option}: {path} is a folder, not a file")
    parent = next((p for p in path.parents if p.exists()), None)
    if parent is not None and not parent.is_dir():
        raise ConfigError(f"{option}: {parent} is a file, not a folder")


def import_ambik(
    csv_path: Annotated[Path, typer.Argument(help="an AmbiK-format CSV file")],
    out: Annotated[Path, typer.Option(help="items file to write (.jsonl or .parquet)")],
) -> None:
    """Read an AmbiK CSV into ambiforge items (unknown columns kept)."""
    from ambiforge.ambik import read_ambik_csv
    from ambiforge.storage import write_items_jsonl, write_items_parquet

    check_output_file(out, "--out")
    items = read_ambik_csv(csv_path)
    (write_items_parquet if out.suffix.lower() == ".parquet" else write_items_jsonl)(out, items)
    console.print(f"imported {len(items)} items from {csv_path} into {out}")


def export_ambik(
    items_path: Annotated[Path, typer.Argument(help="items .jsonl or .parquet")],
    out: Annotated[Path, typer.Option(help="CSV file to write")],
) -> None:
    """Write items as an AmbiK CSV (imported rows come back cell for cell unless corrected)."""
    from ambiforge.ambik import write_ambik_csv
    from ambiforge.storage import read_items

    check_output_file(out, "--out")
    items = read_items(items_path)
    write_ambik_csv(items, out)
    console.print(f"exported {len(items)} items to {out}")
