"""Publish a run's summary to the Prefect UI: a Markdown digest, a table of the worst items and links to
the HTML reports. Content comes from :mod:`ambiforge.engine.report`; this module only talks to Prefect."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from prefect.artifacts import create_link_artifact, create_markdown_artifact, create_table_artifact

from ambiforge.engine.report import summary_markdown, worst_items_table


def artifact_key(run_id: str, what: str) -> str:
    # Artifact keys allow lowercase letters, digits and dashes only.
    safe = "".join(c if c.isalnum() else "-" for c in run_id.lower()).strip("-")
    return f"{what}-{safe}"[:100]


def publish_run_artifacts(summary: dict[str, Any], report: dict[str, Any] | None, reports: dict[str, Path]) -> None:
    run_id = str(summary.get("run_id"))
    create_markdown_artifact(
        markdown=summary_markdown(summary), key=artifact_key(run_id, "summary"), description="ambiforge run summary"
    )
    rows = worst_items_table(report, summary.get("rejected", []))
    create_table_artifact(
        table=rows
        or [{"id": "-", "ambiguity_type": "-", "problem": "none", "details": "no rejected or failing items"}],
        key=artifact_key(run_id, "worst-items"),
        description="rejected items and items with the most failed rules",
    )
    for name, path in reports.items():
        if path.exists():
            create_link_artifact(
                link=path.resolve().as_uri(), link_text=f"{name} report", key=artifact_key(run_id, f"{name}-report")
            )
