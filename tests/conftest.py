"""Shared fixtures. Prefect flows run against one temporary local API for the whole session
(``prefect_test_harness``): starting it costs seconds, so it is started once and only when a test asks."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest

os.environ.setdefault("PREFECT_SERVER_ANALYTICS_ENABLED", "false")
os.environ.setdefault("PREFECT_LOGGING_LEVEL", "WARNING")

REPO = Path(__file__).resolve().parents[1]

_HARNESS: list[str] = []  # the API URL of this process's Prefect test harness, once it started


@pytest.fixture(scope="session")
def prefect_harness() -> Iterator[None]:
    from prefect.testing.utilities import prefect_test_harness

    # every pytest-xdist worker starts its own, at about the same time; on a 2-core machine at load 30 one start
    # alone took over 120 s (Prefect's "Timed out while attempting to connect to ephemeral Prefect API server")
    with prefect_test_harness(server_startup_timeout=300):
        from prefect.settings import PREFECT_API_URL

        _HARNESS.append(str(PREFECT_API_URL.value()))
        yield


@pytest.fixture(autouse=True)
def _prefect_api_only_where_asked(request: pytest.FixtureRequest) -> Iterator[None]:
    """A test that does not ask for ``prefect_harness`` sees no Prefect API, as a user without one does.

    The harness configures Prefect's API URL in this process for the rest of the session (a pytest-xdist
    worker), and an in-process command reads it (``ambiforge.engine.orchestrator.wanted``): an earlier test in
    the same worker would send a later one's build, release or eval through Prefect, whose console handler may
    write to a stream pytest has closed. The harness's server keeps running; only its setting is hidden."""
    if not _HARNESS or "prefect_harness" in request.fixturenames:
        yield
        return
    from prefect.settings import PREFECT_API_URL, temporary_settings

    with temporary_settings(restore_defaults={PREFECT_API_URL}):
        yield


@pytest.fixture(scope="session")
def catalog():  # type: ignore[no-untyped-def]
    from ambiforge.catalog import load_catalog

    return load_catalog()


def _file_tier(items: list[pytest.Item]) -> int:
    """0: a file with a test marked ``slow``; 1: another integration file; 2: a unit file."""
    if any(item.get_closest_marker("slow") for item in items):
        return 0
    return 1 if "integration" in items[0].path.parts else 2


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """The files with slow tests first, the many short unit files last (tests keep their order in a file).

    ``make test`` hands files to pytest-xdist workers in this order (``--no-loadscope-reorder``): a file with
    a minutes-long test started last would hold one worker after the others finished, while short files
    queued behind the long ones fill the workers' gaps at the end."""
    by_file: dict[Path, list[pytest.Item]] = {}
    for item in items:
        by_file.setdefault(item.path, []).append(item)
    tiers = {path: _file_tier(group) for path, group in by_file.items()}
    items.sort(key=lambda item: tiers[item.path])
