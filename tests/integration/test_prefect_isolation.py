"""The session's Prefect test harness reaches the tests that ask for it and no other: an in-process command
in a test that did not ask runs in-process, whatever an earlier test in the same pytest-xdist worker started.
The two tests run in this order (a file's tests stay on one worker, in order)."""

from __future__ import annotations

import pytest

from ambiforge.engine import orchestrator


@pytest.mark.usefixtures("prefect_harness")
def test_a_test_that_asks_for_the_harness_runs_commands_on_it() -> None:
    from prefect.settings import PREFECT_API_URL

    assert PREFECT_API_URL.value()
    assert orchestrator.wanted(False)


def test_a_later_test_that_did_not_ask_runs_commands_in_process() -> None:
    from prefect.settings import PREFECT_API_URL

    assert PREFECT_API_URL.value() is None
    assert not orchestrator.wanted(False)
    assert orchestrator.wanted(True)  # --prefect still asks for it
