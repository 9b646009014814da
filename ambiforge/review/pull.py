"""``review pull``: annotations back from Label Studio -> raw export, agreement, adjudicated items.

Annotators appear as stable pseudonyms (``annotator-1``...) in everything written here except
``annotators.json``, the private mapping. Everything is computed before anything is written, so a failure
(server down, an annotation for an item the run does not have) leaves the files as they were; pulling
again gives the same files.
"""

from __future__ import annotations

import json
from collections import defaultdict
from pathlib import Path
from typing import Any

from ambiforge import ambiguity
from ambiforge.atomic import write_json_atomic, write_jsonl_atomic, write_text_atomic
from ambiforge.errors import InputError
from ambiforge.models import Item
from ambiforge.models.item import Annotation
from ambiforge.review import pseudonyms
from ambiforge.review.adjudication import CORRECTABLE, adjudicate, apply_decision, queue_reasons
from ambiforge.review.agreement import annotator_stats, field_agreement, item_status, judge_vs_reviewers
from ambiforge.review.client import ReviewError, call, connect
from ambiforge.review.labeling import VERDICTS
from ambiforge.review.push import ReviewPaths
from ambiforge.review.report import agreement_html
from ambiforge.review.tasks import parse_result, shown_value
from ambiforge.storage import read_items, read_records, write_items_jsonl, write_items_parquet

QUEUE_FILE = "adjudication_queue.jsonl"


def task_url(url: str, project_id: int, task_id: int) -> str:
    return f"{url}/projects/{project_id}/data?task={task_id}"


def read_decisions(path: Path) -> dict[str, dict[str, Any]]:
    """The maintainer's decisions: queue lines whose ``verdict`` (and optionally ``ambiguity_type`` and
    ``corrections``) they filled in. A bad line is an error naming the line, not an ignored decision."""
    decisions: dict[str, dict[str, Any]] = {}
    if not path.exists():
        return decisions
    known_types = ambiguity.names()
    for n, entry in enumerate(read_records(path), start=1):  # read_records names a line that is not JSON
        if entry.get("verdict") is None:
            continue
        where = f"line {n} (item {entry.get('item_id')!r})"
        if entry["verdict"] not in VERDICTS:
            raise InputError(
                str(path), where, f"verdict must be one of {', '.join(VERDICTS)}, not {entry['verdict']!r}"
            )
        if entry.get("ambiguity_type") not in (None, "", *known_types):
            raise InputError(
                str(path),
                where,
                f"ambiguity_type must be one of {', '.join(known_types)}, not {entry['ambiguity_type']!r}",
            )
        corrections = entry.get("corrections") or {}
        if not isinstance(corrections, dict) or set(corrections) - set(CORRECTABLE):
            raise InputError(str(path), where, f"corrections must map some of {', '.join(CORRECTABLE)} to text")
        if not all(isinstance(v, str) and v.strip() for v in corrections.values()):
            raise InputError(str(path), where, "each correction must be non-empty text")
        decisions[entry["item_id"]] = {
            "verdict": entry["verdict"],
            "ambiguity_type": entry.get("ambiguity_type") or None,
            "corrections": corrections,
        }
    return decisions


def _annotation(raw: Any, task_id: int, shown: dict[str, Any], who: str) -> Annotation:
    parsed = parse_result(raw.result or [], shown)
    if parsed["verdict"] is not None and parsed["verdict"] not in VERDICTS:
        raise ReviewError(f"task {task_id}: annotation {raw.id} has an unknown verdict {parsed['verdict']!r}")
    if parsed["ambiguity_type"] is not None and parsed["ambiguity_type"] not in ambiguity.names():
        raise ReviewError(
            f"task {task_id}: annotation {raw.id} chose ambiguity type {parsed['ambiguity_type']!r}, which is not "
            "registered here (add its folder to [ambiguity] folders)"
        )
    return Annotation(annotator=who, task_id=task_id, annotation_id=raw.id, **parsed)


def queue_entry(
    item: Item, reasons: list[str], decision: dict[str, Any] | None, link: str, shown_type: str | None = None
) -> dict[str, Any]:
    """One line of the queue: what to decide, then everything needed to decide it."""
    assert item.review is not None
    return {
        "item_id": item.id,
        "verdict": (decision or {}).get("verdict"),
        "ambiguity_type": (decision or {}).get("ambiguity_type"),
        "corrections": (decision or {}).get("corrections") or {},
        "reasons": reasons,
        "status": item.review.status,
        "label_studio": link,
        "text": {
            "unambiguous_direct": item.unambiguous_direct,
            "pipeline_type": shown_type or item.ambiguity_type,  # what the annotators were shown
            **{f: shown_value(item, f) for f in CORRECTABLE},
        },
        "annotations": [
            {
                k: v
                for k, v in a.model_dump().items()
                if k in ("annotator", "verdict", "ambiguity_type", "failed_checks", "corrections")
            }
            for a in item.review.annotations
        ],
    }


def read_mapping(run_id: str, paths: ReviewPaths) -> dict[str, Any]:
    """``annotation/<run>/tasks.json``, written by push: the project and the task of each item."""
    mapping_path = paths.folder(run_id) / "tasks.json"
    if not mapping_path.exists():
        raise InputError(str(mapping_path), "", f"run {run_id!r} was never pushed; run `ambiforge review push` first")
    try:
        mapping = json.loads(mapping_path.read_bytes().decode("utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise InputError(str(mapping_path), "", f"cannot be read as JSON ({exc}); push the run again") from None
    if not isinstance(mapping, dict) or not isinstance(mapping.get("project_id"), int):
        raise InputError(str(mapping_path), "project_id", "missing or not a number; push the run again")
    return mapping


def pull(run_id: str, paths: ReviewPaths, required: int = 3) -> dict[str, Any]:
    folder = paths.folder(run_id)
    mapping_path = folder / "tasks.json"
    mapping = read_mapping(run_id, paths)
    project_id = mapping["project_id"]
    client, url = connect()
    call(url, f"reading project {project_id}", lambda: client.projects.get(id=project_id))
    users = {u.id: u for u in call(url, "listing users", lambda: list(client.users.list()))}
    shown = {
        t.id: t.data
        for t in call(url, "listing tasks", lambda: list(client.tasks.list(project=project_id)))
        if isinstance(t.data, dict)
    }
    items = read_items(paths.items(run_id))
    by_id = {i.id: i for i in items}
    export: list[dict[str, Any]] = []
    raw_by_item: dict[str, list[Any]] = {}
    for item_id, task_id in sorted(mapping["tasks"].items(), key=lambda kv: kv[1]):
        if item_id not in by_id:
            raise InputError(
                str(mapping_path), f"task {task_id}", f"refers to item {item_id!r}, which run {run_id} does not have"
            )
        raw = call(url, f"reading annotations of task {task_id}", lambda t=task_id: list(client.annotations.list(id=t)))
        raw_by_item[item_id] = sorted((a for a in raw if not getattr(a, "was_cancelled", False)), key=lambda a: a.id)
    names = pseudonyms.assign(
        pseudonyms.load(folder), {a.completed_by for anns in raw_by_item.values() for a in anns}, users
    )
    annotations: dict[str, list[Annotation]] = defaultdict(list)
    for item_id, raw in raw_by_item.items():
        task_id = mapping["tasks"][item_id]
        export.append(
            {
                "task_id": task_id,
                "item_id": item_id,
                "annotations": [
                    {"id": a.id, "annotator": names[a.completed_by]["pseudonym"], "result": a.result} for a in raw
                ],
            }
        )
        for a in raw:
            who = names[a.completed_by]["pseudonym"]
            annotations[item_id].append(_annotation(a, task_id, shown.get(task_id, {}), who))
    verdicts = {i: {a.annotator: a.verdict for a in anns if a.verdict} for i, anns in annotations.items()}
    types = {i: {a.annotator: a.ambiguity_type for a in anns if a.ambiguity_type} for i, anns in annotations.items()}
    pushed = [i for i in items if i.id in mapping["tasks"]]
    statuses = {i.id: item_status(list(verdicts.get(i.id, {}).values()), required) for i in pushed}
    decisions = read_decisions(folder / QUEUE_FILE)
    reviewed = []
    queue = []
    for item in items:
        if item.id not in mapping["tasks"]:
            reviewed.append(item)
            continue
        anns = annotations.get(item.id, [])
        shown_type = shown.get(mapping["tasks"][item.id], {}).get("pipeline_type")
        adjudicated = adjudicate(item, anns, required, shown_type)
        decided = apply_decision(adjudicated, decisions.get(item.id), shown_type)
        reasons = queue_reasons(anns, required)
        if reasons or item.id in decisions:
            link = task_url(url, project_id, mapping["tasks"][item.id])
            queue.append(queue_entry(decided, reasons, decisions.get(item.id), link, shown_type))
        reviewed.append(decided)
    agreement = {
        "run_id": run_id,
        "project_id": project_id,
        "annotations_per_item": required,
        "items": len(statuses),
        "status_counts": {
            s: sum(1 for v in statuses.values() if v == s) for s in ("unanimous", "majority", "split", "pending")
        },
        "queued": sum(1 for q in queue if q["verdict"] is None),
        "adjudicated": sum(1 for q in queue if q["verdict"] is not None),
        "verdict": field_agreement(verdicts, tuple(VERDICTS), required),
        "ambiguity_type": field_agreement(types, ambiguity.names(), required),
        "annotators": annotator_stats(verdicts),
        "per_item": dict(sorted(statuses.items())),
    }
    judge = judge_vs_reviewers([i for i in reviewed if i.id in mapping["tasks"]])
    if judge is not None:  # the run was judged ([judge]): can the judge be trusted to pre-screen?
        agreement["judge_vs_reviewers"] = judge
    write_json_atomic(folder / "export.json", export)
    write_json_atomic(folder / "agreement.json", agreement)
    write_text_atomic(folder / "agreement.html", agreement_html(agreement, queue))
    write_jsonl_atomic(folder / QUEUE_FILE, queue)
    pseudonyms.save(folder, names)
    write_items_jsonl(paths.items(run_id), reviewed)
    write_items_parquet(paths.items(run_id).with_suffix(".parquet"), reviewed)
    return agreement
