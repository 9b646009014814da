"""The judge in the reports: the validation report's section (flag counts, verdict rates per half and
type, consensus, the simulated user, every flagged pair) and the release card's (configuration, flags,
agreement with reviewers).

Verdict rates are "as claimed": the share of ambiguous tasks the debates judged ambiguous and of clear
tasks judged clear, so 1.0 is a dataset the judge fully believes. A pair the judge doubts is *flagged*:
it has at least one flag, whatever its severity.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from ambiforge import ambiguity
from ambiforge.config.judge import FLAGS
from ambiforge.judge.checks import CHECKS
from ambiforge.judge.summary import shown
from ambiforge.models import HalfJudgement, Item, Judgement
from ambiforge.validation.report_sections import ReportSection, SectionResult

#: item field -> the verdict that half claims
CLAIMS = {"ambiguous_task": "ambiguous", "clear_task": "clear"}


def _rate(hits: int, total: int) -> float | None:
    return round(hits / total, 4) if total else None


def _halves(judged: Sequence[Item]) -> dict[str, dict[str, Any]]:
    """Per half, overall and per type: judged, as claimed, the other verdict, undecided, and the rate."""
    names = [*ambiguity.names(), *sorted({i.ambiguity_type for i in judged} - set(ambiguity.names()))]
    out: dict[str, dict[str, Any]] = {}
    for half, claim in CLAIMS.items():
        groups: dict[str, Counter[str]] = {"all": Counter(), **{n: Counter() for n in names}}
        for item in judged:
            verdict: HalfJudgement | None = getattr(item.judgement, half)
            if verdict is None or verdict.debates == 0:
                continue
            outcome = "undecided" if verdict.verdict is None else "as_claimed" if verdict.verdict == claim else "other"
            for key in ("all", item.ambiguity_type):
                groups[key]["judged"] += 1
                groups[key][outcome] += 1
        out[half] = {
            key: {
                "judged": c["judged"],
                "as_claimed": c["as_claimed"],
                "other": c["other"],
                "undecided": c["undecided"],
                "rate": _rate(c["as_claimed"], c["judged"]),
            }
            for key, c in groups.items()
            if key == "all" or c["judged"]
        }
    return out


def report_section(items: Sequence[Item]) -> dict[str, Any] | None:
    """The ``judge`` section of ``report.json`` (None when no item was judged)."""
    judged = [i for i in items if i.judgement is not None]
    if not judged:
        return None
    first: Judgement = judged[0].judgement  # type: ignore[assignment]
    flags: dict[str, dict[str, int]] = {c: {"items": 0, "errors": 0, "warnings": 0} for c in FLAGS}
    for item in judged:
        for check in dict.fromkeys(f.check for f in item.judgement.flags):  # type: ignore[union-attr]
            flags.setdefault(check, {"items": 0, "errors": 0, "warnings": 0})["items"] += 1
        for f in item.judgement.flags:  # type: ignore[union-attr]
            flags[f.check]["errors" if f.severity == "error" else "warnings"] += 1
    halves = [h for i in judged for h in (i.judgement.ambiguous_task, i.judgement.clear_task) if h]  # type: ignore[union-attr]
    debates = sum(h.debates for h in halves)
    dialogues = [i.judgement.dialogue for i in judged if i.judgement.dialogue is not None]  # type: ignore[union-attr]
    flagged = [
        {
            "id": i.id,
            "ambiguity_type": i.ambiguity_type,
            "flags": [f.model_dump() for f in i.judgement.flags],  # type: ignore[union-attr]
            "shown": shown(i.judgement),
        }
        for i in judged
        if i.judgement.flags  # type: ignore[union-attr]
    ]
    return {
        "config": {
            "methods": first.methods,
            "provider": first.provider,
            "models": first.models,
            "personas": first.personas,
            "rounds": first.rounds,
        },
        "items": len(judged),
        "flagged_items": len(flagged),
        "flags": flags,
        "checks": {c: CHECKS.get(c, "") for c in flags},
        "verdicts": _halves(judged),
        "debates": debates,
        "consensus_rate": _rate(sum(h.consensus for h in halves), debates),
        "dialogue": {
            "items": len(dialogues),
            "gets_gold_rate": _rate(sum(1 for d in dialogues if d.gets_gold), len(dialogues)),
            "resolves_step_rate": _rate(sum(1 for d in dialogues if d.resolves_step), len(dialogues)),
        },
        "flagged": flagged,
    }


def issues(section: Mapping[str, Any] | None) -> list[dict[str, Any]]:
    """The judge's flags as rows of ``issues.csv`` (rule ``judge.<check>``)."""
    return [
        {
            "id": row["id"],
            "rule": f"judge.{f['check']}",
            "severity": f["severity"],
            "field": "",
            "message": f["message"],
            "snippet": "",
        }
        for row in (section or {}).get("flagged", [])
        for f in row["flags"]
    ]


class CardTally:
    """The manifest's ``judge`` gathered one released record at a time (a streamed release never holds its
    records): the distinct configurations, how many items were judged and flagged, and the flag counts."""

    def __init__(self) -> None:
        self.configs: set[tuple[tuple[str, ...], str, tuple[str, ...], int, tuple[str, ...]]] = set()
        self.items = 0
        self.flagged = 0
        self.counts: Counter[str] = Counter()

    def add(self, record: Mapping[str, Any]) -> None:
        judgement = record.get("judgement")
        if not judgement:
            return
        self.configs.add(
            (
                tuple(judgement["methods"]),
                judgement["provider"],
                tuple(judgement["models"]),
                judgement["rounds"],
                tuple(judgement.get("personas") or ()),  # records judged before personas existed have none
            )
        )
        self.items += 1
        self.flagged += bool(judgement["flags"])
        self.counts.update({f["check"] for f in judgement["flags"]})

    def result(self, agreement: Mapping[str, Any]) -> dict[str, Any] | None:
        """``agreement``: per run, ``judge_vs_reviewers`` of the run's agreement.json (or None)."""
        if not self.items:
            return None
        counts = self.counts
        return {
            "configurations": [
                {"methods": list(m), "provider": p, "models": list(ms), "rounds": r, "personas": list(ps)}
                for m, p, ms, r, ps in sorted(self.configs, key=str)
            ],
            "items": self.items,
            "flagged_items": self.flagged,
            "flags": {c: counts.get(c, 0) for c in (*FLAGS, *sorted(set(counts) - set(FLAGS)))},
            "agreement": {run: a for run, a in agreement.items() if a},
        }


def card_section(records: Iterable[Mapping[str, Any]], agreement: Mapping[str, Any]) -> dict[str, Any] | None:
    """The manifest's ``judge``: configuration, flag counts over the released items, and per run the
    kappa between the debates and the reviewers (``judge_vs_reviewers`` of the run's agreement.json)."""
    tally = CardTally()
    for record in records:
        tally.add(record)
    return tally.result(agreement)


@dataclass(frozen=True)
class Judged:
    """A judged item as the judge section reads it (id, type, judgement), without its texts: a streamed
    ``validate`` keeps only this per item."""

    id: str
    ambiguity_type: str
    judgement: Any


class JudgeSection:
    """The validation report's ``judge`` block (registered as a report section: the report never imports
    the judge)."""

    def __init__(self) -> None:
        self.judged: list[Judged] = []

    def add(self, item: Item) -> None:
        if item.judgement is not None:
            self.judged.append(Judged(item.id, item.ambiguity_type, item.judgement))

    def result(self) -> SectionResult | None:
        section = report_section(self.judged)  # type: ignore[arg-type]
        if section is None:  # the judge stage did not run ([judge] disabled)
            return None
        return SectionResult(section, issues(section), {"judge_flagged": section["flagged_items"]})


SECTION = ReportSection("judge", JudgeSection)
