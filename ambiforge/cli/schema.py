"""``ambiforge schema``: print, write or check ``schemas/item.schema.json`` against the item model."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from ambiforge.atomic import write_text_atomic
from ambiforge.cli.common import console
from ambiforge.errors import ConfigError
from ambiforge.models.schema import render_item_schema, repo_schema_path


def schema(
    write: Annotated[bool, typer.Option(help="write the schema file")] = False,
    check: Annotated[bool, typer.Option(help="exit 1 if the file differs from the model")] = False,
    path: Annotated[Path | None, typer.Option(help="schema file (default: schemas/item.schema.json)")] = None,
) -> None:
    """The item JSON Schema, generated from the pydantic model."""
    target = path or repo_schema_path()
    if (write or check) and target.is_dir():
        raise ConfigError(f"--path: {target} is a folder, not a schema file")
    text = render_item_schema()
    from ambiforge.release.manifest_schema import SCHEMA_PATH as MANIFEST_SCHEMA
    from ambiforge.release.manifest_schema import render_manifest_schema

    if write:
        write_text_atomic(target, text)
        console.print(f"wrote {target}")
        if path is None:  # the release manifest's schema is generated too (from the ambiguity type registry)
            write_text_atomic(MANIFEST_SCHEMA, render_manifest_schema())
            console.print(f"wrote {MANIFEST_SCHEMA}")
    elif check:
        if path is None and MANIFEST_SCHEMA.read_text(encoding="utf-8") != render_manifest_schema():
            console.print(f"[red]{MANIFEST_SCHEMA} is out of date with the registry; run `ambiforge schema --write`[/]")
            raise typer.Exit(1)
        try:
            current = target.read_text(encoding="utf-8") if target.exists() else ""
        except UnicodeDecodeError:
            current = ""  # not our text: out of date
        if current != text:
            console.print(f"[red]{target} is out of date with the item model; run `ambiforge schema --write`[/]")
            raise typer.Exit(1)
        console.print(f"{target} matches the item model")
    else:
        typer.echo(text, nl=False)
