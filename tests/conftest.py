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


@pytest.fixture(scope="session")
def prefect_harness() -> Iterator[None]:
    from prefect.testing.utilities import prefect_test_harness

    # every pytest-xdist worker starts its own, at about the same time; on a 2-core machine at load 30 one start
    # alone took over 120 s (Prefect's "Timed out while attempting to connect to ephemeral Prefect API server")
    with prefect_test_harness(server_startup_timeout=300):
        yield


@pytest.fixture(scope="session")
def catalog():  # type: ignore[no-untyped-def]
    from ambiforge.catalog import load_catalog

    return load_catalog()
