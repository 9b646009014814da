"""What every command shares: the console, configuration loading, and the one-line error convention."""

from __future__ import annotations

import logging
import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer
from rich.console import Console

from ambiforge.errors import ConfigError

if TYPE_CHECKING:
    from ambiforge.config.file import Config

#: Lines are not wrapped when stderr is not a terminal (a pipe, a log file, CI): a wrapped line splits
#: values such as ``--manifest-sha256 HASH`` that a reader copies or a script greps.
console = Console(stderr=True, highlight=False, soft_wrap=not sys.stderr.isatty())

#: ``--prefect`` of the commands that are one flow (release, eval, review): see :mod:`ambiforge.api`.
PrefectOption = Annotated[
    bool,
    typer.Option(
        "--prefect",
        help="run as a Prefect flow, on a temporary API server unless PREFECT_API_URL is set (default: only "
        "when PREFECT_API_URL is set; else the same work runs in-process)",
    ),
]


def quiet_prefect() -> None:
    """Prefect logs every flow and task run at INFO; a CLI user wants the progress bars and the summary.
    ``--verbose`` or an explicit PREFECT_LOGGING_LEVEL brings them back."""
    # Great Expectations logs at INFO through the handlers Prefect installs ("Created temporary directory
    # ... for ephemeral docs site" on every build).
    logging.getLogger("great_expectations").setLevel(logging.WARNING)
    if "PREFECT_LOGGING_LEVEL" in os.environ:
        return
    # Dask's own logs (read from the environment by the build and by each worker process it spawns): a
    # stopped build's workers otherwise print "Release failed ... ConnectionPool is closed" tracebacks, and
    # multiprocessing's resource tracker a "leaked semaphore objects" warning it then cleans up itself.
    os.environ.setdefault("DASK_LOGGING__DISTRIBUTED", "critical")
    warnings = os.environ.get("PYTHONWARNINGS", "")
    if "resource_tracker" not in warnings:
        os.environ["PYTHONWARNINGS"] = ",".join(filter(None, (warnings, "ignore:resource_tracker:UserWarning")))
    # ERROR, not WARNING: Prefect's warnings and its "Finished in state Failed" tracebacks repeat what the
    # CLI prints in one line (a bug still surfaces as the CLI's own traceback).
    os.environ["PREFECT_LOGGING_LEVEL"] = "CRITICAL"
    # Not imported here (``ambiforge --help`` must not load Prefect); if it was imported already, it
    # configured its logging then: apply the new level to its loggers now.
    if "prefect" in sys.modules:
        from prefect.logging.configuration import setup_logging

        setup_logging()


def prefect_defaults() -> None:
    """No telemetry from the local API server: no network here, and its heartbeat write races the
    flow's own writes on the SQLite database.

    Without PREFECT_API_URL each command starts Prefect's ephemeral API server; on a fresh PREFECT_HOME
    it first migrates its SQLite database, which on a busy two-core machine took longer than Prefect's
    20 s default and failed the build before it began. Two minutes is generous and still bounded."""
    os.environ.setdefault("PREFECT_SERVER_ANALYTICS_ENABLED", "false")
    os.environ.setdefault("PREFECT_SERVER_EPHEMERAL_STARTUP_TIMEOUT_SECONDS", "120")


def config_from(path: Path | None) -> Config:
    """The configuration every command reads (:func:`ambiforge.api.load_config`: ``--config``, else
    ``$AMBIFORGE_CONFIG``, else ``./ambiforge.toml``)."""
    from ambiforge.api import load_config

    return load_config(path)


def not_empty(option: str, value: str | None) -> None:
    """An option given as '' (or spaces) is a mistake, not "use the default": it used to fall back silently."""
    if value is not None and not value.strip():
        raise ConfigError(f"{option}: empty; give a value, or leave the option out for the default")
