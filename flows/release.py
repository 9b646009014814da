"""The ``release`` flow: gates and writing of ``curated/<version>/`` (logic in :mod:`ambiforge.releases`),
with the manifest's counts published as a Prefect artifact.

A refused release (a gate, a bad option) is the user's to fix, not a crash: the task returns the one-line
reason, the flow publishes it as an artifact and ends in a Failed state carrying it, and the CLI prints
``ambiforge: error: <reason>`` with no Prefect traceback.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from prefect import flow, task
from prefect.artifacts import create_markdown_artifact
from prefect.cache_policies import NO_CACHE
from prefect.states import Failed

from ambiforge.errors import AmbiforgeError
from ambiforge.releases.writer import ReleaseOptions
from ambiforge.stages import StageContext, get
from flows.artifacts import artifact_key


@task(name="write-release", task_run_name="release {opts.version}", cache_policy=NO_CACHE)
def release_task(opts: ReleaseOptions) -> dict[str, Any]:
    try:
        return {"folder": str(get("release").run([opts], StageContext(opts))[0])}
    except AmbiforgeError as exc:
        return {"refused": str(exc), "exit_code": exc.exit_code}


@flow(name="release", flow_run_name="release-{opts.version}", validate_parameters=False)
def release_flow(opts: ReleaseOptions) -> Any:
    """The release summary, or a Failed state whose data is ``{"refused": reason, "exit_code": n}``."""
    outcome = release_task(opts)
    if "refused" in outcome:
        create_markdown_artifact(
            markdown=f"# Release {opts.version} refused\n\n{outcome['refused']}\n",
            key=artifact_key(opts.version, "release"),
        )
        return Failed(message=outcome["refused"], data=outcome)
    folder = outcome["folder"]
    manifest = json.loads((Path(folder) / "manifest.json").read_text(encoding="utf-8"))
    counts, changes = manifest["counts"], manifest["changes"]
    unreviewed = manifest["review"].get("released_unreviewed") or []
    lines = [
        f"# Release {manifest['version']}",
        "",
        f"{counts['total']} items from {', '.join(manifest['run_ids'])}"
        + (f" (**{len(unreviewed)} not reviewed**)" if unreviewed else "")
        + ".",
        "",
        "| split | items |",
        "| --- | ---: |",
        *(f"| {name} | {c['total']} |" for name, c in counts["per_split"].items()),
        "",
        f"Against {changes['previous'] or 'nothing'}: {changes['added']} added, {changes['removed']} removed, "
        f"{changes['changed']} changed. Folder: `{folder}`.",
    ]
    create_markdown_artifact(markdown="\n".join(lines) + "\n", key=artifact_key(manifest["version"], "release"))
    return {"folder": folder, "counts": counts, "changes": changes}


class ReleaseRefused(AmbiforgeError):
    def __init__(self, message: str, exit_code: int) -> None:
        super().__init__(message)
        self.exit_code = exit_code


def run_release(opts: ReleaseOptions) -> dict[str, Any]:
    """Run the flow; a refusal becomes the AmbiforgeError the CLI prints as one line."""
    state = release_flow(opts, return_state=True)
    result = state.result(raise_on_failure=False)
    if state.is_failed():
        if isinstance(result, dict) and "refused" in result:
            raise ReleaseRefused(result["refused"], result["exit_code"])
        raise result if isinstance(result, BaseException) else RuntimeError(f"release flow failed: {state.message}")
    return result
