"""``raw/<run-id>/state.json``: which stage a run is in and which are done.

Maintainers read it to see where a run is (and the Prefect UI shows the same); a rerun with the same run id
reads it to skip finished stages. The options a run was started with are kept beside it, so resuming with
different options is refused instead of silently mixing two datasets in one folder.
"""

from __future__ import annotations

import json
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from ambiforge.atomic import write_json_atomic
from ambiforge.errors import ConfigError

STATE_FILE = "state.json"
OPTIONS_FILE = "options.json"
# Options that change what a run produces; the rest (batch size, task runner) may differ on resume.
OUTPUT_OPTIONS = (
    "provider",
    "pairs",
    "seed",
    "catalog",
    "type_mix",
    "food_groups",
    "item_groups",
    "per_group",
    "candidates",
    "llm_steps",
)


def read_state(directory: Path) -> dict[str, Any]:
    path = directory / STATE_FILE
    if not path.exists():
        return {"stages": {}}
    return json.loads(path.read_text(encoding="utf-8"))


def mark(directory: Path, stage: str, status: str) -> dict[str, Any]:
    """Record ``stage`` as ``running`` or ``done`` (atomically)."""
    state = read_state(directory)
    state.setdefault("stages", {})[stage] = status
    state["stage"] = stage
    state["updated_at"] = datetime.now(UTC).isoformat(timespec="seconds")
    write_json_atomic(directory / STATE_FILE, state)
    return state


def is_done(directory: Path, stage: str) -> bool:
    return read_state(directory).get("stages", {}).get(stage) == "done"


def check_options(directory: Path, options: dict[str, Any]) -> None:
    """First run: record the options. Rerun: refuse when an output-shaping option changed."""
    path = directory / OPTIONS_FILE
    llm = options.get("llm") or {}
    wanted = {k: options.get(k) for k in OUTPUT_OPTIONS} | {"llm_steps": llm.get("steps")}
    wanted = json.loads(json.dumps(wanted))  # tuples -> lists, as stored
    if path.exists():
        recorded = json.loads(path.read_text(encoding="utf-8"))
        # A key the run did not record (it predates that option) cannot have changed.
        changed = sorted(k for k in OUTPUT_OPTIONS if k in recorded and recorded[k] != wanted.get(k))
        if changed:
            raise ConfigError(
                f"{directory}: run exists with different {', '.join(changed)} "
                f"(was {', '.join(f'{k}={recorded.get(k)!r}' for k in changed)}); use another --run-id"
            )
        return
    write_json_atomic(path, wanted)
