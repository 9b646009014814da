"""``review pull``: annotations back from Label Studio -> raw export, agreement, adjudicated items.

Everything is computed before anything is written, so a failure (server down, an annotation for an item the
run does not have) leaves the files as they were; pulling again gives the same files.
"""

from __future__ import annotations

import json
from collections import defaultdict
from pathlib import Path
from typing import Any

from ambiforge.ambiguity import names
from ambiforge.atomic import write_json_atomic, write_jsonl_atomic, write_text_atomic
from ambiforge.errors import InputError
from ambiforge.models import Item
from ambiforge.models.item import Annotation
from ambiforge.review.adjudication import adjudicate
from ambiforge.review.agreement import annotator_stats, field_agreement, item_status
from ambiforge.review.client import ReviewError, call, connect
from ambiforge.review.push import ReviewPaths
from ambiforge.review.report import agreement_html
from ambiforge.review.tasks import parse_result
from ambiforge.storage import read_items, read_records, write_items_jsonl, write_items_parquet

VERDICTS = ("accept", "accept_with_fixes", "reject")
QUEUE_FILE = "adjudication_queue.jsonl"


def read_decisions(path: Path) -> dict[str, dict[str, str]]:
    """The maintainer's decisions: queue lines whose ``verdict`` (and optionally ``ambiguity_type``) they
    filled in. A bad line is an error naming the line, not a silently ignored decision."""
    decisions: dict[str, dict[str, str]] = {}
    if not path.exists():
        return decisions
    for n, entry in enumerate(read_records(path), start=1):  # read_records names a line that is not JSON
        if entry.get("verdict") is None:
            continue
        if entry["verdict"] not in VERDICTS or entry.get("ambiguity_type") not in (None, *names()):
            raise InputError(str(path), f"entry {n}", f"verdict must be one of {', '.join(VERDICTS)}, type known")
        decisions[entry["item_id"]] = {k: entry[k] for k in ("verdict", "ambiguity_type") if entry.get(k)}
    return decisions


def apply_decision(item: Item, decision: dict[str, str] | None) -> Item:
    if decision is None or item.review is None:
        return item
    review = item.review.model_copy(
        update={
            "status": "adjudicated",
            "verdict": decision["verdict"],
            "ambiguity_type": decision.get("ambiguity_type") or item.review.ambiguity_type,
            "queued_for_adjudication": False,
            "adjudicated_by": "maintainer (adjudication_queue.jsonl)",
        }
    )
    return item.model_copy(update={"review": review})


def pull(run_id: str, paths: ReviewPaths, required: int = 3) -> dict[str, Any]:
    folder = paths.folder(run_id)
    mapping_path = folder / "tasks.json"
    if not mapping_path.exists():
        raise InputError(str(mapping_path), "", f"run {run_id!r} was never pushed; run `ambiforge review push` first")
    mapping = json.loads(mapping_path.read_text(encoding="utf-8"))
    client, url = connect()
    call(url, f"reading project {mapping['project_id']}", lambda: client.projects.get(id=mapping["project_id"]))
    users = {u.id: (u.email or u.username) for u in call(url, "listing users", lambda: list(client.users.list()))}
    items = read_items(paths.items(run_id))
    by_id = {i.id: i for i in items}
    export: list[dict[str, Any]] = []
    annotations: dict[str, list[Annotation]] = defaultdict(list)
    for item_id, task_id in sorted(mapping["tasks"].items(), key=lambda kv: kv[1]):
        if item_id not in by_id:
            raise InputError(
                str(mapping_path), f"task {task_id}", f"refers to item {item_id!r}, which run {run_id} does not have"
            )
        raw = call(url, f"reading annotations of task {task_id}", lambda t=task_id: list(client.annotations.list(id=t)))
        raw = sorted((a for a in raw if not getattr(a, "was_cancelled", False)), key=lambda a: a.id)
        export.append(
            {
                "task_id": task_id,
                "item_id": item_id,
                "annotations": [{"id": a.id, "completed_by": a.completed_by, "result": a.result} for a in raw],
            }
        )
        for a in raw:
            parsed = parse_result(a.result or [])
            if parsed["verdict"] is not None and parsed["verdict"] not in VERDICTS:
                raise ReviewError(f"task {task_id}: annotation {a.id} has an unknown verdict {parsed['verdict']!r}")
            annotations[item_id].append(
                Annotation(
                    annotator=users.get(a.completed_by, f"user-{a.completed_by}"),
                    task_id=task_id,
                    annotation_id=a.id,
                    **parsed,
                )
            )
    verdicts = {i: {a.annotator: a.verdict for a in anns if a.verdict} for i, anns in annotations.items()}
    types = {i: {a.annotator: a.ambiguity_type for a in anns if a.ambiguity_type} for i, anns in annotations.items()}
    reviewed = [
        adjudicate(by_id[i.id], annotations.get(i.id, []), required) if i.id in mapping["tasks"] else i for i in items
    ]
    statuses = {
        i.id: item_status(list(verdicts.get(i.id, {}).values()), required) for i in items if i.id in mapping["tasks"]
    }
    agreement = {
        "run_id": run_id,
        "project_id": mapping["project_id"],
        "annotations_per_item": required,
        "items": len(statuses),
        "status_counts": {
            s: sum(1 for v in statuses.values() if v == s) for s in ("unanimous", "majority", "split", "pending")
        },
        "verdict": field_agreement(verdicts, VERDICTS, required),
        "ambiguity_type": field_agreement(types, names(), required),
        "annotators": annotator_stats(verdicts),
        "per_item": dict(sorted(statuses.items())),
    }
    decisions = read_decisions(folder / QUEUE_FILE)
    reviewed = [apply_decision(i, decisions.get(i.id)) for i in reviewed]
    queue = [
        {
            "item_id": i.id,
            "status": i.review.status,
            "verdict": decisions.get(i.id, {}).get("verdict"),
            "ambiguity_type": decisions.get(i.id, {}).get("ambiguity_type"),
            "annotations": [a.model_dump() for a in i.review.annotations],
        }
        for i in reviewed
        if i.review is not None and (i.review.queued_for_adjudication or i.id in decisions)
    ]
    write_json_atomic(folder / "export.json", export)
    write_json_atomic(folder / "agreement.json", agreement)
    write_text_atomic(folder / "agreement.html", agreement_html(agreement))
    write_jsonl_atomic(folder / QUEUE_FILE, queue)
    write_items_jsonl(paths.items(run_id), reviewed)
    write_items_parquet(paths.items(run_id).with_suffix(".parquet"), reviewed)
    return agreement
