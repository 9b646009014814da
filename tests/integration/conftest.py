"""Integration fixtures: the real local language model (``make local-llm``)."""

from __future__ import annotations

import os
from collections.abc import Iterator

import pytest

from ambiforge.testing.local_model import SERVER_ENV, LocalModelError, LocalModelServer


@pytest.fixture(scope="session")
def local_model() -> Iterator[LocalModelServer]:
    """llama-server with SmolLM2-135M-Instruct on a free port, once per session (per pytest-xdist worker: it
    starts in about 2 s), stopped at its end.

    Skipped when ``AMBIFORGE_LLAMA_SERVER`` is unset (pytest run by hand without ``make local-llm``); a
    failure, never a skip, when it is set but the binary, the model or the server start is broken.
    """
    if not os.environ.get(SERVER_ENV):
        pytest.skip(f"make local-llm not run ({SERVER_ENV} is not set)")
    try:
        server = LocalModelServer().start()
    except LocalModelError as exc:
        pytest.fail(f"the local model cannot be served: {exc}", pytrace=False)
    try:
        yield server
    finally:
        server.stop()
