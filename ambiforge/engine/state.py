"""``raw/<run-id>/state.json``: which stage a run is in and which are done; ``options.json``: what the run
was started with, and its fingerprint.

Maintainers read the state to see where a run is (and the Prefect UI shows the same); a rerun with the same
run id reads it to skip finished stages. A rerun whose fingerprint differs from the recorded one is refused,
naming what changed, instead of silently mixing two datasets in one folder.
"""

from __future__ import annotations

import json
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ambiforge.atomic import write_json_atomic
from ambiforge.engine.fingerprint import differences, digest, fingerprint_material
from ambiforge.errors import ConfigError, InputError
from ambiforge.run.layout import OPTIONS_FILE, STATE_FILE

if TYPE_CHECKING:
    from ambiforge.config.build import BuildOptions


def read_json_file(path: Path) -> dict[str, Any]:
    """A run's own JSON file; a corrupt or unreadable one is one line naming it (the fix is to remove it
    or use another run id), not a JSONDecodeError."""
    try:
        value = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, ValueError) as exc:
        reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc).splitlines()[0]
        message = f"cannot read this run file ({reason}); remove it or use another --run-id"
        raise InputError(str(path), "", message) from None
    if not isinstance(value, dict):
        raise InputError(str(path), "", "not a JSON object; remove it or use another --run-id")
    return value


def read_state(directory: Path) -> dict[str, Any]:
    path = directory / STATE_FILE
    if not path.exists():
        return {"stages": {}}
    state = read_json_file(path)
    if not isinstance(state.get("stages", {}), dict):
        raise InputError(str(path), "stages", "not a JSON object; remove the file or use another --run-id")
    return state


def mark(directory: Path, stage: str, status: str) -> dict[str, Any]:
    """Record ``stage`` as ``running`` or ``done`` (atomically)."""
    state = read_state(directory)
    stages = state.setdefault("stages", {})
    stages[stage] = status
    state["stage"] = stage
    state["status"] = "running" if status == "running" else state.get("status", "running")
    if status == "done" and all(v == "done" for v in stages.values()):
        state["status"] = "done"
    state["updated_at"] = datetime.now(UTC).isoformat(timespec="seconds")
    write_json_atomic(directory / STATE_FILE, state)
    return state


def is_done(directory: Path, stage: str) -> bool:
    return read_state(directory).get("stages", {}).get(stage) == "done"


def _recorded(path: Path) -> dict[str, Any]:
    recorded = read_json_file(path)
    if "fingerprint" in recorded:
        if not isinstance(recorded.get("options"), dict) or not isinstance(recorded.get("stages"), dict):
            raise InputError(str(path), "", "no options or stages recorded; remove it or use another --run-id")
        return recorded
    # A run folder from before fingerprints kept a flat subset of the options; compare those only.
    return {"options": {k: v for k, v in recorded.items() if k != "llm_steps"}, "stages": None}


def check_options(
    directory: Path, options: BuildOptions | dict[str, Any], stages: tuple[str, ...] | None = None
) -> str:
    """First run: record the options and fingerprint. Rerun: refuse when the fingerprint changed. Returns
    the fingerprint."""
    from ambiforge.config.build import BuildOptions

    opts = options if isinstance(options, BuildOptions) else BuildOptions.model_validate(options)
    wanted = fingerprint_material(opts, stages)
    value = digest(wanted)
    path = directory / OPTIONS_FILE
    if not path.exists():
        write_json_atomic(path, {"fingerprint": value, **wanted})
        return value
    recorded = _recorded(path)
    if recorded.get("fingerprint") == value:
        return value
    if recorded["stages"] is None:  # old format: only the keys it recorded can have changed
        wanted = {"options": {k: wanted["options"].get(k) for k in recorded["options"]}, "stages": {}}
        recorded["stages"] = {}
    changed = differences(recorded, wanted)
    if changed:
        old = recorded["options"]
        was = ", ".join(f"{k}={old.get(k)!r}" for k in changed if not k.startswith("stage "))
        raise ConfigError(
            f"{directory}: run exists with different {', '.join(changed)}"
            + (f" (was {was})" if was else "")
            + "; use another --run-id"
        )
    return value


def mark_interrupted(directory: Path) -> dict[str, Any]:
    """After SIGINT/SIGTERM: the stage that was running is "interrupted" (so a rerun redoes it; finished
    batches are reused), and so is the run."""
    state = read_state(directory)
    stages = state.setdefault("stages", {})
    for name, status in stages.items():
        if status == "running":
            stages[name] = "interrupted"
    state["status"] = "interrupted"
    state["updated_at"] = datetime.now(UTC).isoformat(timespec="seconds")
    write_json_atomic(directory / STATE_FILE, state)
    return state


def finished_summary(options: BuildOptions) -> dict[str, Any] | None:
    """The summary of a run whose validation finished with these very options (same fingerprint), else
    None. A rerun of a finished build returns it instead of validating, reporting and rewriting the run
    again (seconds of Great Expectations, plots and a Prefect server for nothing, and a rewrite of what
    review may have added to the items)."""
    from ambiforge.engine.fingerprint import fingerprint
    from ambiforge.run.layout import SUMMARY_FILE, run_dir

    directory = run_dir(options.out, options.run_id)
    path = directory / SUMMARY_FILE
    if not (is_done(directory, "validate") and path.is_file()):
        return None
    summary = read_json_file(path)
    return summary if summary.get("fingerprint") == fingerprint(options) else None
