"""The release manifest: what is in a release, how it was made, and a checksum for every file."""

from __future__ import annotations

import json
import subprocess
from collections import Counter
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

import jsonschema_rs

from ambiforge import ambiguity
from ambiforge.models import Item
from ambiforge.releases.manifest_schema import manifest_json_schema


def _validator() -> Any:
    """Over the schema for the types registered now (``schemas/manifest.schema.json`` is its rendering for
    the built-in types)."""
    return jsonschema_rs.validator_for(manifest_json_schema())


def manifest_errors(manifest: dict[str, Any]) -> list[str]:
    return [
        f"{'/'.join(map(str, e.instance_path)) or '(manifest)'}: {e.message}"
        for e in _validator().iter_errors(manifest)
    ]


def git_state(repo: Path) -> tuple[str | None, bool | None]:
    """(commit, dirty) of the ambiforge checkout, or (None, None) outside git."""
    try:
        commit = subprocess.run(
            ["git", "rev-parse", "HEAD"], cwd=repo, capture_output=True, text=True, check=True, timeout=10
        ).stdout.strip()
        status = subprocess.run(
            ["git", "status", "--porcelain", "--untracked-files=no"],
            cwd=repo,
            capture_output=True,
            text=True,
            check=True,
            timeout=10,
        ).stdout
        return commit, bool(status.strip())
    except (OSError, subprocess.SubprocessError):
        return None, None


def per_type(items: Iterable[Any]) -> dict[str, int]:
    """Items (or anything with an ``ambiguity_type``) per type, registered types first."""
    counts = Counter(i.ambiguity_type for i in items)
    return {t: counts.get(t, 0) for t in (*ambiguity.names(), *sorted(set(counts) - set(ambiguity.names())))}


class ProvenanceSummary:
    """The catalogs, prompts and models the items were made with, gathered one item at a time."""

    def __init__(self) -> None:
        self.catalogs: set[tuple[Any, Any]] = set()
        self.prompts: set[tuple[str, str]] = set()
        self.models: set[tuple[str, str, str]] = set()

    def add(self, item: Item) -> None:
        p = item.provenance
        self.catalogs.add((p.catalog_version, p.catalog_sha256))
        self.prompts.update((x.id, x.version) for x in p.prompts)
        self.models.update((m.step, m.provider, m.model) for m in p.models)

    def result(self) -> dict[str, list[dict[str, Any]]]:
        return {
            "catalog": [{"version": v, "sha256": s} for v, s in sorted(self.catalogs, key=str)],
            "prompts": [{"id": p, "version": v} for p, v in sorted(self.prompts)],
            "models": [{"step": s, "provider": p, "model": m} for s, p, m in sorted(self.models)],
        }


def provenance_summary(items: Iterable[Item]) -> dict[str, list[dict[str, Any]]]:
    acc = ProvenanceSummary()
    for item in items:
        acc.add(item)
    return acc.result()


def _pseudonymous(stats: dict[str, Any]) -> dict[str, Any]:
    """Agreement figures with per-annotator entries kept only under pseudonyms (``annotator-N``), so a
    review pulled before pseudonyms existed cannot leak a name into a release."""

    def ok(name: str) -> bool:
        return all(part.startswith("annotator-") for part in name.split("|"))

    out = {k: stats.get(k) for k in ("items", "percent_agreement", "fleiss_kappa", "krippendorff_alpha")}
    out["cohen_kappa_pairwise"] = {k: v for k, v in (stats.get("cohen_kappa_pairwise") or {}).items() if ok(k)}
    return out


def agreement_summary(annotation_root: Path, run_ids: Sequence[str]) -> dict[str, Any]:
    """Top-level agreement figures of each run's review (``annotation/<run-id>/agreement.json``)."""
    found: dict[str, Any] = {}
    for run_id in run_ids:
        path = annotation_root / run_id / "agreement.json"
        if path.exists():
            data = json.loads(path.read_text(encoding="utf-8"))
            found[run_id] = {
                "items": data.get("items"),
                "annotations_per_item": data.get("annotations_per_item"),
                "status_counts": data.get("status_counts", {}),
                "adjudicated": data.get("adjudicated", 0),
                "queued": data.get("queued", 0),
                "verdict": _pseudonymous(data.get("verdict") or {}),
                "ambiguity_type": _pseudonymous(data.get("ambiguity_type") or {}),
                "annotators": {k: v for k, v in (data.get("annotators") or {}).items() if k.startswith("annotator-")},
                "judge_vs_reviewers": data.get("judge_vs_reviewers"),  # counts and kappa only: no names
            }
    return found


def run_samplers(raw: Path, run_ids: Sequence[str]) -> dict[str, Any]:
    """Per source run, the ``[sampler]`` ranges it drew scenes with (``raw/<run-id>/options.json``), so the
    card states the ranges that were used; a run without the file (items imported or copied in) is null."""
    found: dict[str, Any] = {}
    for run_id in run_ids:
        path = raw / run_id / "options.json"
        sampler = None
        if path.is_file():
            try:
                sampler = (json.loads(path.read_text(encoding="utf-8")).get("options") or {}).get("sampler")
            except (OSError, ValueError, AttributeError):
                sampler = None
        found[run_id] = sampler if isinstance(sampler, dict) else None
    return found
