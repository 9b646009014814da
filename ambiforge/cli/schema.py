"""``ambiforge schema``: print, write or check ``schemas/item.schema.json`` against the item model; with the
default path, the schemas generated beside it (the release manifest's, from the type registry, and the scene
graph's, from its model) are written and checked too."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Annotated

import typer

from ambiforge.atomic import write_text_atomic
from ambiforge.cli.common import config_from, console
from ambiforge.errors import ConfigError
from ambiforge.models.schema import render_item_schema, repo_schema_path


def schema(
    write: Annotated[bool, typer.Option(help="write the schema file")] = False,
    check: Annotated[bool, typer.Option(help="exit 1 if the file differs from the model")] = False,
    path: Annotated[Path | None, typer.Option(help="schema file (default: schemas/item.schema.json)")] = None,
    config: Annotated[Path | None, typer.Option(help="ambiforge.toml to use")] = None,
) -> None:
    """The item JSON Schema, generated from the pydantic model (and the types registered by the
    configuration's [ambiguity] folders, as every command reads them)."""
    config_from(config)  # registers [ambiguity] folders: their types are in the schemas
    target = path or repo_schema_path()
    if (write or check) and target.is_dir():
        raise ConfigError(f"--path: {target} is a folder, not a schema file")
    text = render_item_schema()
    companions = companion_schemas() if path is None else []
    if write:
        write_text_atomic(target, text)
        console.print(f"wrote {target}")
        for file, render, _ in companions:
            write_text_atomic(file, render())
            console.print(f"wrote {file}")
    elif check:
        for file, render, source in companions:
            if not file.is_file() or file.read_text(encoding="utf-8") != render():
                console.print(f"[red]{file} is out of date with {source}; run `ambiforge schema --write`[/]")
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


def companion_schemas() -> list[tuple[Path, Callable[[], str], str]]:
    """(file, how to render it, what it is generated from) for each schema written beside the item's."""
    from ambiforge.models.scene_graph_schema import render_scene_graph_schema, repo_scene_graph_schema_path
    from ambiforge.releases.manifest_schema import SCHEMA_PATH as MANIFEST_SCHEMA
    from ambiforge.releases.manifest_schema import render_manifest_schema

    return [
        (MANIFEST_SCHEMA, render_manifest_schema, "the registry"),
        (repo_scene_graph_schema_path(), render_scene_graph_schema, "the scene graph model"),
    ]
