"""docs/operations.md: every command in its shell blocks parses with the words and options it is given
(each CLI's own parser, in this process, without running the command: an unknown subcommand or option, or a
value of the wrong type, fails), and every variable ``prefect.yaml`` needs is named there.
``ambiforge serve`` itself is run by test_serve_schedule.py."""

from __future__ import annotations

import re
import shlex
from pathlib import Path
from typing import Any

import click
import pytest

REPO = Path(__file__).resolve().parents[2]
DOC = REPO / "docs" / "operations.md"
#: what the page writes for a value the reader fills in, and a value of the right type for the parser
PLACEHOLDERS = {"RUN-ID": "01a21ebe-c93b-7b2f-87d5-528df7c20000"}


def doc_commands() -> list[list[str]]:
    commands: list[list[str]] = []
    for block in re.findall(r"```bash\n(.*?)```", DOC.read_text(encoding="utf-8"), re.DOTALL):
        for line in block.splitlines():
            words = [PLACEHOLDERS.get(w, w) for w in shlex.split(line, comments=True)]
            if words and words[0] != "export" and words not in commands:
                commands.append(words)
    return commands


def parse_click(command: Any, name: str, args: list[str]) -> None:
    """Walk a click group down to the command the words name, then parse its options (no callback runs).
    Duck-typed: Typer carries its own copy of click, whose classes are not click's."""
    while hasattr(command, "list_commands"):
        sub = command.get_command(click.Context(command), args[0]) if args else None
        assert sub is not None, f"{name}: no subcommand {args[:1]}"
        name, command, args = f"{name} {args[0]}", sub, args[1:]
    # some commands pass unknown options on (dask worker): every option must be one the command declares
    known = {o for p in command.params for o in (*p.opts, *p.secondary_opts)}
    unknown = [a for a in args if a.startswith("-") and a.split("=")[0] not in known]
    assert not unknown, f"{name}: no option {unknown}"
    command.make_context(name, list(args))


def click_command(program: str, sub: str) -> tuple[Any, list[str]]:
    if program == "ambiforge":
        import typer

        from ambiforge.cli.main import app

        return typer.main.get_command(app), []
    if sub == "scheduler":
        from distributed.cli.dask_scheduler import main as scheduler

        return scheduler, [sub]
    from distributed.cli.dask_worker import main as worker

    return worker, [sub]


def test_every_variable_of_prefect_yaml_is_documented() -> None:
    needed = set(re.findall(r"\{\{\s*\$(\w+)\s*\}\}", (REPO / "prefect.yaml").read_text(encoding="utf-8")))
    assert needed == {"AMBIFORGE_HOME"}
    text = DOC.read_text(encoding="utf-8")
    for name in needed:
        assert f"{{{{ ${name} }}}}" in text and f"export {name}=" in text


def test_every_command_in_the_operations_page_parses() -> None:
    from prefect.cli._app import _app as prefect_app

    commands = doc_commands()
    assert {c[0] for c in commands} == {"ambiforge", "prefect", "dask"}
    assert len(commands) >= 15
    failed = []
    for words in commands:
        try:
            if words[0] == "prefect":
                prefect_app.parse_args(words[1:], print_error=False, exit_on_error=False)
            else:
                command, skip = click_command(words[0], words[1])
                parse_click(command, words[0], [w for w in words[1:] if w not in skip])
        except Exception as exc:  # noqa: BLE001 - every parser's own error, collected to name them all
            failed.append(f"{shlex.join(words)}: {type(exc).__name__}: {exc}")
    assert not failed, "\n".join(failed)


@pytest.mark.parametrize(
    "words",
    [["prefect", "flow-run", "ls", "--bogus"], ["ambiforge", "serve", "--bogus"], ["dask", "worker", "--bogus"]],
)
def test_a_wrong_option_fails_the_parse(words: list[str]) -> None:
    error: Any = Exception
    with pytest.raises(error):
        if words[0] == "prefect":
            from prefect.cli._app import _app as prefect_app

            prefect_app.parse_args(words[1:], print_error=False, exit_on_error=False)
        else:
            command, skip = click_command(words[0], words[1])
            parse_click(command, words[0], [w for w in words[1:] if w not in skip])
