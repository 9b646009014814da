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


# Session fixtures set up once in every pytest-xdist worker that needs them rather than keeping their tests on
# one worker: the Prefect harness and llama-server start in seconds, while the tests that use them run for
# minutes and are CPU-bound (the local-model tests together take over ten): spread, they share both cores.
PER_WORKER = frozenset({"catalog", "prefect_harness", "local_model"})


def _shared_keys(item: pytest.Item) -> set[str]:
    """What ``item`` shares with other tests beyond one worker's reach: a module-scoped fixture (its module),
    a session-scoped one of ours not in ``PER_WORKER`` (one Label Studio with its annotators)."""
    keys: set[str] = set()
    info = getattr(item, "_fixtureinfo", None)
    if info is None:
        return keys
    for name in item.fixturenames:  # type: ignore[attr-defined]
        definitions = info.name2fixturedefs.get(name)
        if not definitions or name in PER_WORKER:
            continue
        definition = definitions[-1]
        if not definition.baseid:
            continue  # pytest's own (tmp_path_factory, ...) and plugins'
        if definition.scope == "module":
            keys.add(item.nodeid.split("::")[0])
        elif definition.scope in ("package", "session"):
            keys.add(f"fixture:{name}")
    return keys


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Under pytest-xdist (``make test`` runs ``-n ... --dist loadgroup``) tests that share an expensive
    fixture run on one worker, so it is set up once: every test that uses a module- or session-scoped fixture
    gets an ``xdist_group`` joining it to all the tests it shares one with (transitively). The rest are spread
    one by one. Derived from the fixtures, so a new test needs no list."""
    parent: dict[str, str] = {}

    def find(key: str) -> str:
        while parent.setdefault(key, key) != key:
            parent[key] = parent[parent[key]]
            key = parent[key]
        return key

    keyed = [(item, sorted(_shared_keys(item))) for item in items]
    for _, keys in keyed:
        for key in keys[1:]:
            a, b = find(keys[0]), find(key)
            if a != b:
                parent[max(a, b)] = min(a, b)
    for item, keys in keyed:
        if keys and not any(m.name == "xdist_group" for m in item.iter_markers()):
            item.add_marker(pytest.mark.xdist_group(find(keys[0])))
