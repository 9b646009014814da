"""``review push``: a run's validated items into a Label Studio project, idempotently.

The project is found by title, or created with ``maximum_annotations=3``, the labeling config generated
from the registered ambiguity types, and the annotator guidelines as its instructions (shown before
labeling). Predictions are off: the pipeline's view is shown as task data, not pre-selected. Items
already in the project (by ``data.item_id``) are not imported again. The item id <-> task id mapping is kept
in ``annotation/<run-id>/tasks.json``.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ambiforge.atomic import write_json_atomic
from ambiforge.review.client import call, connect
from ambiforge.review.labeling import instructions_html, render_labeling_config
from ambiforge.review.tasks import ls_task
from ambiforge.run.layout import run_dir
from ambiforge.storage import read_items


@dataclass(frozen=True)
class ReviewPaths:
    raw: Path
    annotation: Path

    def items(self, run_id: str) -> Path:
        return run_dir(self.raw, run_id) / "items.jsonl"

    def folder(self, run_id: str) -> Path:
        return self.annotation / run_id


def project_settings(annotators: int, annotation: Path | None = None) -> dict[str, Any]:
    """What a labeling team expects of the project: the guidelines first, no pre-annotations, each task
    to ``annotators`` people, skipping allowed (a skipped task goes to someone else); the labeling config
    from the ``[paths] annotation`` folder's template if it has one."""
    return {
        "label_config": render_labeling_config(annotation),
        "expert_instruction": instructions_html(),
        "show_instruction": True,
        "show_collab_predictions": False,
        "show_skip_button": True,
        "maximum_annotations": annotators,
    }


def project_tasks(client: Any, url: str, project_id: int) -> dict[str, int]:
    tasks = call(url, "listing tasks", lambda: list(client.tasks.list(project=project_id)))
    return {t.data["item_id"]: t.id for t in tasks if isinstance(t.data, dict) and "item_id" in t.data}


def push(run_id: str, paths: ReviewPaths, project: str | None = None, annotators: int = 3) -> dict[str, Any]:
    client, url = connect()
    items = [i for i in read_items(paths.items(run_id)) if i.validation is None or i.validation.passed]
    title = project or f"ambiforge {run_id}"
    projects = call(url, "listing projects", lambda: list(client.projects.list()))
    found = next((p for p in projects if p.title == title), None)
    settings = project_settings(annotators, paths.annotation)
    if found is None:
        found = call(
            url,
            "creating the project",
            lambda: client.projects.create(
                title=title,
                description=f"ambiforge run {run_id}: {len(items)} pairs, {annotators} annotators each",
                **settings,
            ),
        )
    else:  # keep instructions and settings current; the labeling config only changes while nothing is labeled
        current = {k: v for k, v in settings.items() if k != "label_config"}
        call(url, "updating the project's settings", lambda: client.projects.update(id=found.id, **current))
    project_id = found.id
    existing = project_tasks(client, url, project_id)
    new = [i for i in items if i.id not in existing]
    if new:
        call(
            url,
            "importing tasks",
            lambda: client.projects.import_tasks(id=project_id, request=[ls_task(i) for i in new]),
        )
    mapping = project_tasks(client, url, project_id)
    write_json_atomic(
        paths.folder(run_id) / "tasks.json",
        {"project_id": project_id, "project_title": title, "tasks": dict(sorted(mapping.items()))},
    )
    return {"project_id": project_id, "title": title, "imported": len(new), "already_there": len(items) - len(new)}


def invite_link() -> str:
    """The organization's sign-up link (Label Studio's ``/api/invite``): an annotator who opens it creates
    their own account, with their own password, in this organization, and can log in and label. (Accounts
    created through the users API have no password and cannot log in.)"""
    client, url = connect()
    invite = call(url, "getting the invite link", lambda: client.organizations.invites.get_invite_link())
    return f"{url}{invite.invite_url}"
