"""Entry point. Errors a user can fix are printed as one line, ``ambiforge: error: <where>: <what>``,
with exit code 2 (bad arguments or input) or 1 (the work failed); tracebacks are for bugs only."""

from __future__ import annotations

import sys
from typing import Annotated

import typer

# typer 0.29 vendors click; its exceptions are not click's.
from typer._click import exceptions as click_exceptions

from ambiforge import redaction
from ambiforge.cli.ambik import export_ambik, import_ambik
from ambiforge.cli.build import build
from ambiforge.cli.common import quiet_prefect
from ambiforge.cli.eval import eval_app
from ambiforge.cli.release import diff, release, verify
from ambiforge.cli.review import review_app
from ambiforge.cli.schema import schema
from ambiforge.cli.serve import serve
from ambiforge.cli.validate import validate
from ambiforge.errors import AmbiforgeError

app = typer.Typer(
    rich_markup_mode=None,  # option help names config keys in [brackets], which Rich would eat as markup
    name="ambiforge",
    help="Generate, validate, review and release datasets of ambiguous vs unambiguous instructions.",
    add_completion=True,  # --install-completion / --show-completion for bash, zsh, fish, PowerShell
    no_args_is_help=True,
    pretty_exceptions_enable=False,
)


def show_version(value: bool) -> None:
    if value:
        from ambiforge.version import __version__

        print(f"ambiforge {__version__}")
        raise typer.Exit(0)


@app.callback()
def root(
    version: Annotated[
        bool,
        typer.Option("--version", callback=show_version, is_eager=True, help="print the version and exit"),
    ] = False,
) -> None:
    """Generate, validate, review and release datasets of ambiguous vs unambiguous instructions."""


app.command()(build)
app.command()(schema)
app.command()(serve)
app.command()(validate)
app.add_typer(review_app, name="review")
app.command()(release)
app.command()(verify)
app.command()(diff)
app.command("import-ambik")(import_ambik)
app.command("export-ambik")(export_ambik)
app.add_typer(eval_app, name="eval")


def main(argv: list[str] | None = None) -> int:
    redaction.install()  # before anything can log or fail: no key in a log line or a traceback
    if "--verbose" not in (sys.argv[1:] if argv is None else argv):
        quiet_prefect()  # before any flow configures Prefect's logging from the environment
    try:
        result = app(args=argv, standalone_mode=False, prog_name="ambiforge")
    except click_exceptions.NoArgsIsHelpError as exc:
        print(exc.format_message(), file=sys.stderr)
        return 0
    except click_exceptions.UsageError as exc:
        message = redaction.redact(exc.format_message().replace("\n", " "))
        print(f"ambiforge: error: {message}", file=sys.stderr)
        return 2
    except typer.Exit as exc:
        return exc.exit_code
    except (typer.Abort, KeyboardInterrupt):  # Ctrl-C before a build's own handling (or in another command)
        print("ambiforge: interrupted", file=sys.stderr)
        return 130
    except AmbiforgeError as exc:
        print(f"ambiforge: error: {redaction.redact(str(exc))}", file=sys.stderr)
        return exc.exit_code
    except OSError as exc:  # the machine, not a bug: a full disk, a read-only or vanished folder
        print(f"ambiforge: error: {redaction.redact(os_error_text(exc))}", file=sys.stderr)
        return 1
    if result == 130:  # typer turns a KeyboardInterrupt inside a command into this code, silently
        print("ambiforge: interrupted", file=sys.stderr)
    return result if isinstance(result, int) else 0


def os_error_text(exc: OSError) -> str:
    """``cannot write in /data: No space left on device``: the file (or, for an atomic write's temporary
    ``.name.xxxx.tmp``, its folder) and the system's reason."""
    from pathlib import Path

    reason = exc.strerror or str(exc)
    if not exc.filename:
        return reason
    path = Path(str(exc.filename))
    if path.name.startswith(".") and path.name.endswith(".tmp"):
        return f"cannot write in {path.parent}: {reason}"
    return f"{path}: {reason}"


if __name__ == "__main__":
    sys.exit(main())
