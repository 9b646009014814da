"""The ``release`` flow: gates and writing of ``curated/<version>/`` (logic in :mod:`ambiforge.release`),
with the manifest's counts published as a Prefect artifact."""

from __future__ import annotations

import json
from typing import Any

from prefect import flow, task
from prefect.artifacts import create_markdown_artifact
from prefect.cache_policies import NO_CACHE

from ambiforge.release.writer import ReleaseOptions
from ambiforge.stages import StageContext, get
from flows.artifacts import artifact_key


@task(name="write-release", task_run_name="release {opts.version}", cache_policy=NO_CACHE)
def release_task(opts: ReleaseOptions) -> str:
    return str(get("release").run([opts], StageContext(opts))[0])


@flow(name="release", flow_run_name="release-{opts.version}", validate_parameters=False)
def release_flow(opts: ReleaseOptions) -> dict[str, Any]:
    folder = release_task(opts)
    from pathlib import Path

    manifest = json.loads((Path(folder) / "manifest.json").read_text(encoding="utf-8"))
    counts, changes = manifest["counts"], manifest["changes"]
    lines = [
        f"# Release {manifest['version']}",
        "",
        f"{counts['total']} items from {', '.join(manifest['run_ids'])}"
        + (" (**unreviewed allowed**)" if manifest["allow_unreviewed"] else "")
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
