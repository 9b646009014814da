"""``ambiforge import-ambik`` and ``export-ambik``: the published AmbiK CSV layout in and out."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from ambiforge.cli.common import console


def import_ambik(
    csv_path: Annotated[Path, typer.Argument(help="an AmbiK-format CSV file")],
    out: Annotated[Path, typer.Option(help="items file to write (.jsonl or .parquet)")],
) -> None:
    """Read an AmbiK CSV into ambiforge items (unknown columns kept)."""
    from ambiforge.ambik import read_ambik_csv
    from ambiforge.storage import write_items_jsonl, write_items_parquet

    items = read_ambik_csv(csv_path)
    (write_items_parquet if out.suffix == ".parquet" else write_items_jsonl)(out, items)
    console.print(f"imported {len(items)} items from {csv_path} into {out}")


def export_ambik(
    items_path: Annotated[Path, typer.Argument(help="items .jsonl or .parquet")],
    out: Annotated[Path, typer.Option(help="CSV file to write")],
) -> None:
    """Write items as an AmbiK CSV (imported rows come back cell for cell unless corrected)."""
    from ambiforge.ambik import write_ambik_csv
    from ambiforge.storage import read_items

    items = read_items(items_path)
    write_ambik_csv(items, out)
    console.print(f"exported {len(items)} items to {out}")
