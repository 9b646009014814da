"""``ambiforge import-ambik`` and ``export-ambik``: the published AmbiK CSV layout in and out."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from ambiforge.cli.common import config_from, console

RawCellsOption = Annotated[
    bool,
    typer.Option(
        "--raw-cells",
        help="cells byte for byte: no apostrophe added before (export) or taken off (import) a cell a "
        "spreadsheet would run as a formula",
    ),
]


def import_ambik(
    csv_path: Annotated[Path, typer.Argument(help="an AmbiK-format CSV file")],
    out: Annotated[Path, typer.Option(help="items file to write (.jsonl or .parquet)")],
    raw_cells: RawCellsOption = False,
    config: Annotated[Path | None, typer.Option(help="ambiforge.toml to use")] = None,
) -> None:
    """Read an AmbiK CSV into ambiforge items (unknown columns kept)."""
    from ambiforge import api

    count = api.import_ambik(csv_path, out, config=config_from(config), raw_cells=raw_cells)
    console.print(f"imported {count} items from {csv_path} into {out}")


def export_ambik(
    items_path: Annotated[Path, typer.Argument(help="items .jsonl or .parquet")],
    out: Annotated[Path, typer.Option(help="CSV file to write")],
    raw_cells: RawCellsOption = False,
    config: Annotated[Path | None, typer.Option(help="ambiforge.toml to use")] = None,
) -> None:
    """Write items as an AmbiK CSV (imported rows come back cell for cell unless corrected; a cell a
    spreadsheet would run as a formula gets a leading apostrophe unless --raw-cells)."""
    from ambiforge import api

    count = api.export_ambik(items_path, out, config=config_from(config), raw_cells=raw_cells)
    console.print(f"exported {count} items to {out}")
