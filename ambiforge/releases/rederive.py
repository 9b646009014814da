"""``verify``, the facts: counts, review status, splits and provenance recomputed from the released rows
and compared with what the manifest says.

Collected in the one pass over the rows (:func:`ambiforge.releases.verify_rows.walk`), a few bytes per row
(id, type, split) plus one representative row per distinct provenance or CSV layout, so the release's own
functions (:func:`~ambiforge.releases.manifest.provenance_summary`, :func:`~ambiforge.ambik.csv_io.columns_for`,
:func:`~ambiforge.releases.splits.stratified_splits`, :func:`~ambiforge.releases.selection.review_state`)
recompute the manifest's figures exactly.

What the rows cannot tell: ``review.status`` counts items *not* released too (rejected, queued, duplicates),
so it is checked as far as it goes: every released row's state is counted there, the states a release takes
add up to the rows plus the merged duplicates, and no rejected or queued row is released. The rest
(``git_commit``, ``created_at``, ``run_ids``...) is covered by the hashes (``manifest.sha256`` and the card's
record, :mod:`ambiforge.releases.seal`).
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, NamedTuple

from ambiforge.ambik.csv_io import COLUMNS_KEY, INDIRECT, columns_for
from ambiforge.releases.manifest import provenance_summary
from ambiforge.releases.record_view import RecordView
from ambiforge.releases.selection import UNREVIEWED_STATES, review_state
from ambiforge.releases.splits import stratified_splits

RELEASED_STATES = ("accepted", *UNREVIEWED_STATES)


class Pair(NamedTuple):
    id: str
    ambiguity_type: str


def _counts_differ(where: str, said: Mapping[str, int], found: Mapping[str, int]) -> str | None:
    for key in dict.fromkeys([*said, *found]):
        if said.get(key, 0) != found.get(key, 0):
            return f"{where}.{key}: manifest says {said.get(key, 0)}, the rows have {found.get(key, 0)}"
    return None


@dataclass
class Tally:
    pairs: list[Pair] = field(default_factory=list)
    split_of: list[str] = field(default_factory=list)
    per_type: Counter[str] = field(default_factory=Counter)
    per_split: dict[str, Counter[str]] = field(default_factory=lambda: defaultdict(Counter))
    states: Counter[str] = field(default_factory=Counter)
    first_in_state: dict[str, tuple[str, str]] = field(default_factory=dict)  # state -> (file:row, id)
    unreviewed: list[str] = field(default_factory=list)
    provenance_kinds: dict[Any, RecordView] = field(default_factory=dict)
    layout_kinds: dict[Any, RecordView] = field(default_factory=dict)
    #: the ``environment`` configuration's rows per type (environment/data.jsonl.gz)
    environment: Counter[str] = field(default_factory=Counter)
    #: the JSON lines' file name in the release verified (data.jsonl in one written before compression)
    jsonl: str = "data.jsonl.gz"

    def add(self, row: int, record: dict[str, Any], view: RecordView, split: str) -> None:
        kind = record["ambiguity_type"]
        self.pairs.append(Pair(record["id"], kind))
        self.split_of.append(split)
        self.per_type[kind] += 1
        self.per_split[split][kind] += 1
        self._released(f"{self.jsonl}:{row}", record, view)
        extra = record.get("extra") or {}
        layout = (extra.get(COLUMNS_KEY), bool(record.get(INDIRECT)), tuple(sorted(extra)))
        self.layout_kinds.setdefault(layout, view)

    def add_environment(self, row: int, record: dict[str, Any], view: RecordView) -> None:
        """A row of ``environment/data.jsonl.gz``: counted, reviewed and traced like the others, in no split and
        not in the AmbiK CSV layout."""
        self.environment[record["ambiguity_type"]] += 1
        self._released(f"environment/{self.jsonl}:{row}", record, view)

    def _released(self, where: str, record: dict[str, Any], view: RecordView) -> None:
        state = review_state(view)  # type: ignore[arg-type]
        self.states[state] += 1
        self.first_in_state.setdefault(state, (where, record["id"]))
        if state in UNREVIEWED_STATES:
            self.unreviewed.append(record["id"])
        p = record["provenance"]
        sig = (
            p.get("catalog_version"),
            p.get("catalog_sha256"),
            tuple((x["id"], x["version"]) for x in p.get("prompts") or []),
            tuple((m["step"], m["provider"], m["model"]) for m in p.get("models") or []),
        )
        self.provenance_kinds.setdefault(sig, view)

    @property
    def rows(self) -> int:
        """Released rows in every configuration."""
        return len(self.pairs) + sum(self.environment.values())

    def csv_header(self) -> list[str]:
        return columns_for(list(self.layout_kinds.values()))  # type: ignore[arg-type]

    def problem(self, manifest: dict[str, Any]) -> str | None:
        """The first manifest figure the rows contradict, naming the manifest field; None if all agree."""
        for check in (self._counts, self._review, self._splits, self._provenance, self._statistics):
            found = check(manifest)
            if found:
                return found
        return None

    def _counts(self, manifest: dict[str, Any]) -> str | None:
        counts = manifest["counts"]
        if counts["total"] != len(self.pairs):
            return f"counts.total: manifest says {counts['total']}, {self.jsonl} has {len(self.pairs)} rows"
        found = _counts_differ("counts.per_type", counts["per_type"], self.per_type)
        for name in dict.fromkeys([*counts["per_split"], *self.per_split]):
            said = counts["per_split"].get(name, {"total": 0, "per_type": {}})
            have = self.per_split.get(name, Counter())
            if found:
                break
            if said["total"] != sum(have.values()):
                found = (
                    f"counts.per_split.{name}.total: manifest says {said['total']}, the rows have {sum(have.values())}"
                )
            found = found or _counts_differ(f"counts.per_split.{name}.per_type", said["per_type"], have)
        if found:
            return found
        said_env = (counts.get("configurations") or {}).get("environment") or {"total": 0, "per_type": {}}
        have_env = sum(self.environment.values())
        if said_env["total"] != have_env:
            where = "counts.configurations.environment.total"
            return f"{where}: manifest says {said_env['total']}, environment/{self.jsonl} has {have_env} rows"
        return _counts_differ("counts.configurations.environment.per_type", said_env["per_type"], self.environment)

    def _review(self, manifest: dict[str, Any]) -> str | None:
        review, allow = manifest["review"], manifest["allow_unreviewed"]
        for state, (row, item_id) in self.first_in_state.items():
            if state not in RELEASED_STATES:
                return f"{row}: item {item_id} is {state} in review, and such items are never released"
            if state != "accepted" and not allow:
                return f"allow_unreviewed: manifest says false, but {row} (item {item_id}) is {state}"
        listed = sorted(review.get("released_unreviewed") or [])
        if listed != sorted(self.unreviewed):
            missing = sorted(set(self.unreviewed) - set(listed))
            extra = sorted(set(listed) - set(self.unreviewed))
            detail = f"misses {missing[0]}" if missing else f"lists {extra[0]}, which is not an unreviewed row"
            return f"review.released_unreviewed: {detail}"
        status = review["status"]
        for state, n in self.states.items():
            if status.get(state, 0) < n:
                return f"review.status.{state}: manifest says {status.get(state, 0)}, the release has {n} such rows"
        taken = ("accepted", *UNREVIEWED_STATES) if allow else ("accepted",)
        releasable = sum(status.get(s, 0) for s in taken)
        merged = manifest["counts"].get("merged_duplicates", 0)
        if releasable != self.rows + merged:
            return (
                f"review.status: {releasable} items in state(s) {', '.join(taken)} "
                f"(allow_unreviewed {str(allow).lower()}), but the release has {self.rows} rows and "
                f"{merged} merged duplicates"
            )
        runs = set(manifest["run_ids"])
        strays = [run for run in review.get("agreement") or {} if run not in runs]
        if strays:
            return f"run_ids: {', '.join(manifest['run_ids'])} leaves out {strays[0]}, whose review agreement is listed"
        return None

    def _splits(self, manifest: dict[str, Any]) -> str | None:
        settings = manifest["splits"]
        if settings["calibration_size"] != sum(self.per_split.get("calibration", Counter()).values()):
            return (
                f"splits.calibration_size: manifest says {settings['calibration_size']}, "
                f"splits/calibration.parquet has {sum(self.per_split.get('calibration', Counter()).values())} rows"
            )
        expected = stratified_splits(self.pairs, settings["calibration_size"], settings["seed"])  # type: ignore[arg-type]
        where = {i: name for name, ids in expected.items() for i in ids}
        for pair, split in zip(self.pairs, self.split_of, strict=True):
            if where.get(pair.id) != split:
                return (
                    f"splits/{split}.parquet: holds {pair.id}, but the split seeded {settings['seed']} with "
                    f"calibration size {settings['calibration_size']} puts it in {where.get(pair.id)}"
                )
        return None

    def _provenance(self, manifest: dict[str, Any]) -> str | None:
        derived = provenance_summary(list(self.provenance_kinds.values()))  # type: ignore[arg-type]
        for key, value in derived.items():
            said = manifest.get(key) or []
            if said != value:
                unknown = [e for e in said if e not in value]
                if unknown:
                    return f"{key}: manifest lists {unknown[0]}, which no row's provenance has"
                missing = [e for e in value if e not in said]
                if missing:
                    return f"{key}: manifest leaves out {missing[0]}, which rows' provenance has"
                return f"{key}: manifest lists the rows' provenance in another order or with repeats"
        return None

    def _statistics(self, manifest: dict[str, Any]) -> str | None:
        stats = manifest.get("statistics") or {}
        if "items" in stats and stats["items"] != self.rows:
            return f"statistics.items: manifest says {stats['items']}, the release has {self.rows} rows"
        if "per_type" in stats:
            return _counts_differ("statistics.per_type", stats["per_type"], self.per_type + self.environment)
        return None
