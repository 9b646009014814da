"""The validation report a curator fixes from.

- ``report.json``: summary, per rule the number of *items* it flags (and of flags), every item's failures,
  and ``issues``: one row per flag with the item id, rule, severity, field, message and the offending text.
- ``issues.csv``: the same issues as a table (id, rule, severity, field, message, snippet).
- a block per report section a later stage registered (:mod:`.report_sections`), e.g. ``judge`` when the
  judge stage ran: flag counts, verdict rates per half and type, consensus, every flagged pair
  (:mod:`ambiforge.judge.report`); its flags are also rows of ``issues`` (rule ``judge.<check>``).
- ``report.html``: counts, plots, every issue (filterable by rule and severity with a little inline script:
  the report is opened offline, so nothing comes from a CDN), every flagged item with its texts, the worst
  items ranked by severity, and the Great Expectations results in readable form with a link to Data Docs.
"""

from __future__ import annotations

import copy
import csv
import io
import json
import pickle
import re
import tempfile
import uuid
from collections import Counter
from collections.abc import Iterable, Iterator, Mapping, Sequence
from pathlib import Path
from typing import IO, Any

from ambiforge import ambiguity, spreadsheet
from ambiforge.atomic import write_atomic, write_json_atomic, write_text_atomic
from ambiforge.models import Item
from ambiforge.rendering import render
from ambiforge.rendering.html import Chart, bar_chart, histogram, share_chart, template
from ambiforge.validation.causes import causes_of_flagged, in_cause
from ambiforge.validation.report_sections import SECTIONS
from ambiforge.validation.rules import all_rules

EXAMPLES_PER_RULE = 5
#: What to fix for each built-in rule, in the order to fix them: text damage first (the other rules read
#: through it), then what makes a row wrong as a benchmark item, then what it names, then the warnings.
#: The report sorts its rules by this order within each severity, then by the number of items flagged.
WHAT_TO_FIX: dict[str, str] = {
    "schema": "make the row valid against schemas/item.schema.json",
    "corruption": (
        "re-export the cell: drop the stray step number, split the steps, restore the cut word, "
        "drop the doubled one, fix spelling"
    ),
    "hygiene": "replace the template placeholder or the model's refusal with the real text",
    "duplicate_id": "give each row its own id",
    "duplicate": "drop or rewrite the second copy of the task",
    "plan": "give both plans 1..max_plan_steps non-empty steps and an end_of_ambiguity inside them",
    "minimal_pair": "rewrite the ambiguous task so it leaves the intended option open",
    "plan_divergence": "make the clear plan resolve the ambiguity at end_of_ambiguity (it copies the ambiguous one)",
    "plan_mismatch": "rewrite the clear plan for the clear task: name what the clear task names where it is used",
    "intent": "state the intent in the clear task or plan, or correct user_intent",
    "end_of_ambiguity": (
        "set end_of_ambiguity to the first step that acts on the open choice (where the plans part, or, in "
        "copied plans, the step the question is about)"
    ),
    "type": "change ambiguity_type, or make the question and answer the safety matter the type claims",
    "answer_leak": "replace the intended object in the ambiguous plan, up to end_of_ambiguity, by the open choice",
    "shortlist": "list at least two options, spelled as the environment names them, or add them to the scene",
    "grounding": "add the object to environment_short, or name one the scene has",
    "variants": "add the intended option, as the answer gives it, to the variants",
    "question": "end the question with '?'",
    "qa_fit": "ask about what the pair leaves open; the answer names the intended option (or correct user_intent)",
    "qa_off_point": "ask about what the two tasks differ by, or make the clear task say the answer",
    "fragment": "restore the start of the cut text, or drop the editor's note",
    "plan_resolution": "make the clear step at end_of_ambiguity name the intended option (or move end_of_ambiguity)",
    "answer_leak_suspect": "check the named step: if it gives the answer away, make it say the open choice",
    "variants_suspect": "check the variants: add the intended option if it is an option",
    "variants_shortlist": "make the variants offer the options the shortlist lists, or correct the shortlist",
    "intent_suspect": "say the intended option in the clear task or its plan, or correct user_intent to what they say",
    "answer": "make the answer name the intended option, or correct user_intent",
    "grounding_variant": "use the environment's name for the object",
    "grounding_noun": "name the container or tool the scene has, or add one to environment_short",
    "shortlist_missing": "list the options the ambiguous task leaves open in amb_shortlist",
    "plan_agreement": "make the two plans say the same before end_of_ambiguity",
    "plan_length": "split the task or drop the steps that do not serve it",
    "rewrite": "change only the words that leave the choice open; keep the rest of the clear task",
    "length": "shorten the text to the configured word limits",
    "environment": "list each object once in environment_short",
    "near_duplicate": "rewrite one of the two tasks so they differ, or drop one",
    "released_before": "drop the task or give it the id it was released under",
    "reader_plan": "make the named step fetch, hold or heat what it uses, or make its text say its action",
    "reader_variants": "add the named candidate to the variants (or record why it cannot do the job)",
    "reader_speech": "put the greeting first; make the phrases agree with each other and the frame, and "
    "determiners with their nouns",
}


def fix_rank(rule_id: str) -> int:
    order = list(WHAT_TO_FIX)
    return order.index(rule_id) if rule_id in order else len(order)


#: report.html lists at most this many issues (issues.csv has all of them).
HTML_ISSUES = 20_000
SNIPPET_CHARS = 240
ISSUE_COLUMNS = ("id", "rule", "severity", "field", "message", "snippet")
_FIELD = re.compile(r"^([a-z_]+)(?:\[(\d+)\])?$")


def field_of(message: str) -> str:
    """The field a rule message names: ``'plan_for_amb_task[2]: ...'`` -> ``'plan_for_amb_task[2]'``."""
    head, sep, _ = message.partition(":")
    return head.strip() if sep and _FIELD.match(head.strip()) else ""


def snippet(item: Item, field: str, message: str = "") -> str:
    """The text of ``field`` in ``item`` (a plan step for ``plan_x[i]``), shortened for a table cell around
    the words the message quotes, so a long recipe's cell still shows the offending word."""
    m = _FIELD.match(field)
    if not m or not hasattr(item, m.group(1)):
        return ""
    value: Any = getattr(item, m.group(1))
    if m.group(2) is not None and isinstance(value, list):
        k = int(m.group(2))
        value = value[k] if k < len(value) else ""
    if isinstance(value, list):
        value = " | ".join(map(str, value))
    text = " ".join(str(value).split())
    if len(text) <= SNIPPET_CHARS:
        return text
    quoted = re.search(r"'([^']{2,})'", message)
    at = text.lower().find(quoted.group(1).lower()) if quoted else -1
    if at < SNIPPET_CHARS - 40:
        return text[: SNIPPET_CHARS - 1] + "…"
    start = max(0, at - SNIPPET_CHARS // 2)
    return "…" + text[start : start + SNIPPET_CHARS - 2] + "…"


class Rows:
    """The report's rows, one per item in order, as a report of any size keeps them: each written to a
    temporary file as it comes (read back, in order, by iterating), and the flagged ones also held with
    their positions, which is all the counts, causes and rankings read."""

    def __init__(self) -> None:
        self._file = tempfile.TemporaryFile()  # noqa: SIM115 - lives with the rows; deleted when collected
        self.count = 0
        self.flagged: list[tuple[int, dict[str, Any]]] = []

    def append(self, row: dict[str, Any]) -> None:
        pickle.dump(row, self._file, protocol=pickle.HIGHEST_PROTOCOL)  # exact values, any text
        if row["failed"]:
            self.flagged.append((self.count, row))
        self.count += 1

    def __len__(self) -> int:
        return self.count

    def __iter__(self) -> Iterator[dict[str, Any]]:
        """The rows in order (one reader at a time: it moves the file's position, then puts it back)."""
        end = self._file.tell()
        self._file.seek(0)
        try:
            for _ in range(self.count):
                yield pickle.load(self._file)
        finally:
            self._file.seek(end)

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Rows | list):
            return len(self) == len(other) and all(a == b for a, b in zip(self, other, strict=True))
        return NotImplemented

    __hash__ = None  # type: ignore[assignment]

    def __deepcopy__(self, memo: dict[int, Any]) -> list[dict[str, Any]]:
        """A plain list (what a caller's copy of a report holds: ``ambiforge.results``)."""
        return [copy.deepcopy(row, memo) for row in self]


#: The validation report's page (:func:`write_report`).
PAGE = "validation.html.j2"


def load_report() -> None:
    """Load what the report needs for its first item and its page: the sections of the stages above
    validation (the judge's imports its debates) and the page's template compiled. A build's last steps
    need them after its last LLM reply; loaded while it waits on the replies, they are off that path."""
    SECTIONS.items()
    template(PAGE)


class ReportBuilder:
    """:func:`build_report` one item at a time (a streamed ``validate`` never holds the items): per rule
    counts and examples, one row per item (:class:`Rows`) and one issue per flag, which is what the report
    holds."""

    def __init__(self) -> None:
        self.rules: dict[str, dict[str, Any]] = {
            rule_id: {
                "severity": rule.severity,
                "description": rule.description,
                "count": 0,  # items flagged by the rule
                "flags": 0,
                "fix": WHAT_TO_FIX.get(rule_id, rule.description),
                "examples": [],  # the first items flagged, one each, with the flag's evidence
            }
            for rule_id, rule in all_rules().items()
        }
        self.rows = Rows()
        self.issues: list[dict[str, Any]] = []
        self.sections = {name: section.builder() for name, section in SECTIONS.items().items()}

    def add(self, item: Item) -> None:
        """``item`` must carry ``validation``."""
        rules, issues = self.rules, self.issues
        failed = [f.model_dump() for f in (item.validation.failed if item.validation else [])]
        for section in self.sections.values():
            section.add(item)
        self.rows.append({"id": item.id, "ambiguity_type": item.ambiguity_type, "failed": failed})
        for rule_id in dict.fromkeys(f["rule"] for f in failed):
            entry = rules[rule_id]
            entry["count"] += 1
            if len(entry["examples"]) < EXAMPLES_PER_RULE:
                first = next(f for f in failed if f["rule"] == rule_id)
                field = field_of(first["message"])
                entry["examples"].append(
                    {"id": item.id, "message": first["message"], "snippet": snippet(item, field, first["message"])}
                )
        for f in failed:
            rules[f["rule"]]["severity"] = f["severity"]  # as configured for this run
            rules[f["rule"]]["flags"] += 1
            field = field_of(f["message"])
            issues.append(
                {
                    "id": item.id,
                    "rule": f["rule"],
                    "severity": f["severity"],
                    "field": field,
                    "message": f["message"],
                    "snippet": snippet(item, field, f["message"]),
                }
            )

    def result(self, expectations: dict[str, Any] | None, source: str) -> dict[str, Any]:
        rows, flagged = self.rows, self.rows.flagged
        with_errors = sum(1 for _, r in flagged if any(f["severity"] == "error" for f in r["failed"]))
        with_warnings = sum(1 for _, r in flagged if any(f["severity"] == "warning" for f in r["failed"]))
        sections = {name: s.result() for name, s in self.sections.items()}
        issues = self.issues + [issue for s in sections.values() if s is not None for issue in s.issues]
        causes = causes_of_flagged(flagged, self.rules)
        for rule_id, entry in self.rules.items():
            explained = (
                sum(
                    1
                    for n, row in flagged
                    if in_cause(causes, rule_id, n) and any(f["rule"] == rule_id for f in row["failed"])
                )
                if any(c["rule"] == rule_id for c in causes)
                else 0
            )
            entry["in_causes"] = explained
            entry["outside_causes"] = entry["count"] - explained
        report: dict[str, Any] = {
            "source": source,
            "summary": {
                "items": len(rows),
                "passed": len(rows) - with_errors,
                "with_errors": with_errors,
                "with_warnings": with_warnings,
                "flags": len(issues),
                "expectations_success": None if expectations is None else expectations["success"],
            },
            "causes": causes,
            "rules": self.rules,
            "items": rows,
            "issues": issues,
            "expectations": expectations,
        }
        for name, s in sections.items():  # e.g. the judge stage ran: its flags are counted apart from the rules'
            if s is not None:
                report[name] = s.section
                report["summary"].update(s.summary)
        return report


def build_report(items: Iterable[Item], expectations: dict[str, Any] | None, source: str) -> dict[str, Any]:
    """``items`` must carry ``validation`` (see :func:`ambiforge.validation.validate_items`)."""
    builder = ReportBuilder()
    for item in items:
        builder.add(item)
    return builder.result(expectations, source)


def rank(rows: Sequence[dict[str, Any]]) -> list[dict[str, Any]]:
    """Flagged items, worst first: by the number of distinct error rules, then of warning rules (a rule
    that fires ten times on one item counts once, so one noisy rule cannot dominate)."""

    def key(row: dict[str, Any]) -> tuple[int, int, str]:
        errors = {f["rule"] for f in row["failed"] if f["severity"] == "error"}
        warnings = {f["rule"] for f in row["failed"] if f["severity"] == "warning"}
        return (-len(errors), -len(warnings), row["id"])

    return sorted((r for r in rows if r["failed"]), key=key)


def issues_csv(issues: Sequence[Mapping[str, Any]]) -> str:
    """The issues as a table. A report is read in a spreadsheet and quotes the items' texts, which may be
    hostile: a cell a spreadsheet would run as a formula always gets a leading apostrophe
    (:func:`ambiforge.spreadsheet.neutral`)."""
    buffer = io.StringIO()
    writer = csv.DictWriter(buffer, fieldnames=ISSUE_COLUMNS, extrasaction="ignore", lineterminator="\n")
    writer.writeheader()
    writer.writerows(
        {k: spreadsheet.neutral(v) if isinstance(v, str) else v for k, v in issue.items()} for issue in issues
    )
    return buffer.getvalue()


def _short(text: str, chars: int = 60) -> str:
    text = " ".join(text.split())
    return text if len(text) <= chars else text[: chars - 1] + "…"


def _number(value: Any) -> str:
    if isinstance(value, bool):
        return str(value).lower()
    if isinstance(value, float):
        return f"{value:.0f}" if value.is_integer() else f"{value:.3g}"
    return str(value)


def readable(value: Any) -> str:
    """A GX kwarg or observed value for a person: lists joined, numbers rounded, no Python dict syntax."""
    if value is None:
        return ""
    if isinstance(value, Mapping):
        if "unexpected_count" in value:
            examples = "; ".join(_short(str(v)) for v in (value.get("examples") or [])[:3])
            return f"{value['unexpected_count']} unexpected" + (f", e.g. {examples}" if examples else "")
        return "; ".join(f"{k} {readable(v)}" for k, v in value.items())
    if isinstance(value, list | tuple):
        shown = ", ".join(_short(readable(v)) for v in value[:12])
        return shown + (f", … ({len(value)} in all)" if len(value) > 12 else "")
    return _short(_number(value), 200)


def _expectation_rows(expectations: Mapping[str, Any] | None) -> list[dict[str, Any]]:
    if not expectations:
        return []
    out = []
    for e in expectations.get("results", []):
        kwargs = e.get("kwargs") or {}
        out.append(
            {
                "table": e.get("table", ""),
                "expectation": e.get("expectation", "").removeprefix("expect_").replace("_", " "),
                "column": e.get("column") or "",
                "settings": ", ".join(f"{k.replace('_', ' ')} {readable(v)}" for k, v in kwargs.items()),
                "success": e.get("success"),
                "observed": readable(e.get("observed")),
            }
        )
    return out


class PlotData:
    """What the report's plots show, gathered one item at a time: types, plan lengths, scene sizes, each
    as a tally (a histogram is its counts), so a build of any size holds a few dozen numbers."""

    def __init__(self) -> None:
        self.items = 0
        self.types: Counter[str] = Counter()
        self.plan_steps: Counter[int] = Counter()
        self.environment_sizes: Counter[int] = Counter()

    def add(self, item: Item) -> None:
        self.items += 1
        self.types[item.ambiguity_type] += 1
        self.plan_steps[len(item.plan_for_clear_task)] += 1
        self.environment_sizes[len(item.environment)] += 1

    def add_all(self, items: Iterable[Item]) -> PlotData:
        for item in items:
            self.add(item)
        return self


#: The share of tasks a repeated 5-gram may reach before it reads as a template showing through (issue 29).
NGRAM_LIMIT = 0.05


def _plots(
    data: PlotData, target_mix: Mapping[str, float] | None, ngrams: list[list[Any]] | None = None
) -> dict[str, Chart]:
    counts = data.types
    n = data.items
    mix = dict(target_mix or ambiguity.default_mix())
    total = sum(mix.values()) or 1.0
    names = [*ambiguity.names(), *sorted(t for t in counts if t not in ambiguity.names())]
    targets = [n * mix.get(t, 0.0) / total for t in names]
    return {
        "Type mix": bar_chart(
            "Ambiguity types (bars: items; marks: target mix)",
            names,
            [counts.get(t, 0) for t in names],
            targets=targets,
        ),
        "Plan lengths": histogram("Steps in the unambiguous plan", data.plan_steps, "steps"),
        "Environment sizes": histogram("Objects per scene", data.environment_sizes, "objects"),
        **(
            {
                "Repeated 5-grams": share_chart(
                    "Most repeated 5-grams (share of tasks; fixtures aside)",
                    [str(g) for g, _ in ngrams],
                    [float(s) for _, s in ngrams],
                    limit=NGRAM_LIMIT,
                )
            }
            if ngrams
            else {}
        ),
    }


def write_report_json(path: Path, report: dict[str, Any]) -> Path:
    """``report.json`` as :func:`ambiforge.atomic.write_json_atomic` writes it, the same bytes, with the
    rows (:class:`Rows`) written one at a time as they are read back from their file."""
    rows = report.get("items")
    if not isinstance(rows, Rows):
        return write_json_atomic(path, report)
    marker = json.dumps(f"rows-{uuid.uuid4().hex}")  # stands for the rows in the rest of the report
    head, tail = json.dumps({**report, "items": json.loads(marker)}, indent=2, ensure_ascii=False).split(marker)

    def write(fh: IO[str]) -> None:
        fh.write(head)
        if not rows:
            fh.write("[]")
        else:
            for k, row in enumerate(rows):  # a row in the list sits two levels deep: four spaces
                fh.write(",\n    " if k else "[\n    ")
                fh.write(json.dumps(row, indent=2, ensure_ascii=False).replace("\n", "\n    "))
            fh.write("\n  ]")
        fh.write(tail + "\n")

    return write_atomic(path, write)


def write_report(
    report: dict[str, Any],
    items: Sequence[Item],
    directory: Path,
    *,
    target_mix: Mapping[str, float] | None = None,
    diversity: dict[str, Any] | None = None,
    plots: PlotData | None = None,
) -> tuple[Path, Path]:
    """Write report.json, issues.csv and report.html into ``directory``; returns the JSON and HTML paths.

    Also records the HTML path in ``report["summary"]["report_path"]``, so that a build stage returning the
    summary tells its caller where the report is. The Data Docs link points at ``data_docs/index.html``
    beside the report (``ExpectationsResult.save`` writes it there).

    A streamed ``validate`` passes ``diversity`` and ``plots`` gathered as it read, and as ``items`` only
    the flagged ones (the HTML shows their texts)."""
    from ambiforge.diversity import report_section

    directory = Path(directory)
    directory.mkdir(parents=True, exist_ok=True)
    html_path = directory / "report.html"
    report["diversity"] = diversity if diversity is not None else report_section(items)
    report["summary"]["report_path"] = str(html_path)
    report["summary"]["issues_csv"] = str(directory / "issues.csv")
    json_path = write_report_json(directory / "report.json", report)
    write_text_atomic(directory / "issues.csv", issues_csv(report.get("issues", [])))
    by_id = {i.id: i for i in items}
    data = plots if plots is not None else PlotData().add_all(items)
    rows = report["items"]
    flagged = rank([row for _, row in rows.flagged] if isinstance(rows, Rows) else rows)
    issues = report.get("issues", [])
    rule_rows = sorted(
        ((rid, r) for rid, r in report["rules"].items() if r["count"]),
        key=lambda kv: (kv[1]["severity"] != "error", fix_rank(kv[0]), -kv[1]["count"], kv[0]),
    )
    unflagged = sorted(rid for rid, r in report["rules"].items() if not r["count"])
    html = render(
        PAGE,
        report=report,
        rules=rule_rows,
        unflagged=unflagged,
        causes=report.get("causes", []),
        worst=flagged[:30],
        flagged=[(row, by_id.get(row["id"])) for row in flagged],
        issues=issues[:HTML_ISSUES],
        issues_left_out=max(0, len(issues) - HTML_ISSUES),
        expectation_rows=_expectation_rows(report.get("expectations")),
        plots=_plots(data, target_mix, report["diversity"].get("ngrams")) if data.items else {},
    )
    write_text_atomic(html_path, html)
    return json_path, html_path
