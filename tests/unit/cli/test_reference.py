"""docs/cli.md is the CLI's own help, rendered: a command added, renamed or re-described without the page fails."""

from __future__ import annotations

from ambiforge.cli.reference import render
from tests.conftest import REPO


def test_docs_cli_md_is_the_rendered_help() -> None:
    page = (REPO / "docs" / "cli.md").read_text()
    assert page == render(), "docs/cli.md is stale: python -m ambiforge.cli.reference > docs/cli.md"


def test_every_command_and_subcommand_has_a_row() -> None:
    page = render()
    for command in ("build", "validate", "release", "verify", "review push", "review pull", "eval rescore"):
        assert f"| `ambiforge {command}` | " in page
    assert "\n| `ambiforge build` | Generate PAIRS" in page  # the row carries the command's own help line
