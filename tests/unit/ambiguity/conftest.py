from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from ambiforge import ambiguity

FIXTURE_TYPES = Path(__file__).resolve().parents[2] / "fixtures" / "types"


@pytest.fixture
def quantity_type() -> Iterator[ambiguity.AmbiguityType]:
    """The fourth type of tests/fixtures/types/quantity, registered for one test and removed after it."""
    registered = ambiguity.register_folder(FIXTURE_TYPES / "quantity")
    try:
        yield registered
    finally:
        ambiguity.unregister(registered.name)
