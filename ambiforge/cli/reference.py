"""docs/cli.md, rendered from the CLI's own help so the page cannot drift from the commands.

``python -m ambiforge.cli.reference > docs/cli.md`` rewrites it; a unit test renders it again and fails
when a command, a subcommand or its help line changed without the page. Options are left to ``--help``:
they change more often than a newcomer's map of the commands needs.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import typer

HEADER = """# Command reference

Generated from the CLI's help by `python -m ambiforge.cli.reference > docs/cli.md` (a unit test fails when
the commands change and this page does not). `ambiforge COMMAND --help` lists a command's options.

| Command | What it does |
| --- | --- |
"""


def commands(group: Any, context: Any, prefix: tuple[str, ...] = ()) -> Iterator[tuple[str, str]]:
    """``(name, one-line help)`` of every command, subcommands after their group, in the CLI's order."""
    for name in group.list_commands(context):
        command = group.get_command(context, name)
        path = (*prefix, name)
        yield " ".join(path), command.get_short_help_str(limit=400)
        if hasattr(command, "list_commands"):  # a group (review, eval): its subcommands follow it
            yield from commands(command, type(context)(command, info_name=name, parent=context), path)


def escape(text: str) -> str:
    return text.replace("|", "\\|").replace("<", "&lt;")


def render() -> str:
    from ambiforge.cli.main import app

    root = typer.main.get_command(app)
    context = root.make_context("ambiforge", [], resilient_parsing=True)
    rows = [f"| `ambiforge {name}` | {escape(text)} |" for name, text in commands(root, context)]
    return HEADER + "\n".join(rows) + "\n"


if __name__ == "__main__":
    print(render(), end="")
