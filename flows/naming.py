"""Flow-run names that read well in the Prefect UI ("build-20261122T030000Z-offline-s1-3f9a0c21")."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from prefect.runtime import flow_run


def run_name(prefix: str, parameter: str = "options") -> Callable[[], str]:
    def name() -> str:
        value: Any = flow_run.parameters.get(parameter)
        run_id = getattr(value, "run_id", None) if not isinstance(value, dict | str) else None
        if isinstance(value, dict):
            run_id = value.get("run_id")
        elif isinstance(value, str):
            run_id = value
        return f"{prefix}-{run_id or 'scheduled'}"

    return name
