"""Writing ``eval/<name>/``: per-item results (``results.jsonl``, ``results.parquet``), ``results.json`` and
``report.html`` (AmbiK-style tables and plots; the page extends the shared report layout of
:mod:`ambiforge.rendering.html`, plots are embedded PNGs)."""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import jinja2
import pyarrow as pa
import pyarrow.parquet as pq

from ambiforge import ambiguity
from ambiforge.atomic import atomic_path, write_json_atomic, write_jsonl_atomic, write_text_atomic
from ambiforge.detectors.metrics import ALL, METRICS, UNAMBIGUOUS
from ambiforge.evaluation.run import MethodResult
from ambiforge.rendering.html import figure_uri

_ENV = jinja2.Environment(
    loader=jinja2.ChoiceLoader(
        [
            jinja2.PackageLoader("ambiforge.evaluation", "templates"),
            jinja2.PackageLoader("ambiforge.rendering", "templates"),
        ]
    ),
    autoescape=True,
    trim_blocks=True,
    lstrip_blocks=True,
)


def flat_rows(results: Sequence[MethodResult]) -> list[dict[str, Any]]:
    """Per-item rows for Parquet: metrics as columns, method details as a JSON string."""
    rows = []
    for r in results:
        for row in r.rows:
            flat = {k: v for k, v in row.items() if k not in ("metrics", "details")}
            flat["details"] = json.dumps(row["details"], ensure_ascii=False, sort_keys=True)
            flat.update(row["metrics"])
            rows.append(flat)
    return rows


def groups_in(results: Sequence[MethodResult]) -> list[str]:
    """Types in registry order (those present), then unambiguous and all."""
    present = {g for r in results for g in r.summary}
    return [t for t in ambiguity.names() if t in present] + [g for g in (UNAMBIGUOUS, ALL) if g in present]


def _grouped_bars(title: str, methods: list[str], groups: list[str], values: dict[str, dict[str, float | None]]) -> str:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(6.5, 2.8))
    width = 0.8 / max(1, len(methods))
    for n, method in enumerate(methods):
        xs = [g + n * width for g in range(len(groups))]
        ax.bar(xs, [values[method].get(g) or 0.0 for g in groups], width, label=method)
    ax.set_xticks([g + width * (len(methods) - 1) / 2 for g in range(len(groups))], groups, fontsize=8)
    ax.set_title(title)
    ax.legend(fontsize=7)
    return figure_uri(fig)


def help_plot(results: Sequence[MethodResult]) -> str:
    """Help rate against correct help rate, one point per method (AmbiK's figure): a method that asks more
    moves right; only one that asks when it should moves up. Methods with no answered task are left out."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(4.2, 3.6))
    for r in results:
        overall = r.summary.get(ALL, {})
        if overall.get("HR") is None or overall.get("CHR") is None:
            continue
        ax.scatter([overall["HR"]], [overall["CHR"]], s=30)
        ax.annotate(
            f"{r.name} (n={overall['n']})",
            (overall["HR"], overall["CHR"]),
            fontsize=7,
            xytext=(4, 3),
            textcoords="offset points",
        )
    ax.set_xlim(-0.05, 1.05)
    ax.set_ylim(-0.05, 1.05)
    ax.set_xlabel("help rate (HR)")
    ax.set_ylabel("correct help rate (CHR)")
    ax.set_title("HR vs CHR per method")
    return figure_uri(fig)


def plots(results: Sequence[MethodResult]) -> list[tuple[str, str]]:
    methods = [r.name for r in results]
    groups = [g for g in groups_in(results) if g != ALL]
    by = {m: {r.name: {g: r.summary.get(g, {}).get(m) for g in groups} for r in results} for m in ("set_size", "ICR")}
    return [
        ("Mean prediction set size per type", _grouped_bars("mean set size", methods, groups, by["set_size"])),
        ("Intent coverage (ICR) per type", _grouped_bars("ICR", methods, groups, by["ICR"])),
        ("Help rate vs correct help rate per method", help_plot(results)),
    ]


def own_figures(results: Sequence[MethodResult], groups: Sequence[str]) -> dict[str, dict[str, Any]]:
    """A method's own figures (``summarise``) split for the report: those given per group (success per
    type) as table rows, the others (consensus rate, mean rounds, per-leader success) as a list."""
    out: dict[str, dict[str, Any]] = {}
    for r in results:
        if not r.extra:
            continue
        per_group = {k: v for k, v in r.extra.items() if isinstance(v, dict) and set(v) & set(groups)}
        other = {k: v for k, v in r.extra.items() if k not in per_group}
        out[r.name] = {"per_group": per_group, "other": other}
    return out


def pace_line(pace: dict[str, Any] | None) -> str | None:
    """One sentence when the rpm window, not the model, set the run's pace (``None`` otherwise)."""
    if not pace or not pace.get("rate_limited"):
        return None
    waiting = pace["rate_wait"] + pace["slot_wait"] + pace["call"]
    return (
        f"the rate limit ([llm] rpm = {pace['rpm']}, --rpm) set the pace: {pace['rate_wait']:.1f} s of "
        f"{waiting:.1f} s waiting (the model answered in {pace['call']:.1f} s over {pace['calls']} calls)"
    )


PAPER_FIGURES = "paper_figures.yaml"


def paper_figures() -> dict[str, Any]:
    """The AmbiK paper's published figures (``paper_figures.yaml`` in this package, with its source), shown
    beside the run's and marked as the paper's; ``figures`` maps method -> model -> metric -> value and is
    empty, with ``missing`` saying why, until figures that can be sourced are entered there."""
    from importlib.resources import files

    import yaml

    data = yaml.safe_load(files("ambiforge.evaluation").joinpath(PAPER_FIGURES).read_text(encoding="utf-8"))
    return data if isinstance(data, dict) else {}


_METRIC_NOTES = {
    "SSC": "no answered task of a type with a shortlist (SSC compares the set with the shortlist)",
    "ICR": "no answered task with an intent to cover",
}


def undefined_notes(document: dict[str, Any], results: Sequence[MethodResult]) -> list[str]:
    """A sentence for each headline figure that is "—" on the page, saying why it is undefined."""
    notes = []
    for r in results:
        record = document["methods"].get(r.name) or {}
        overall = r.summary.get(ALL, {})
        if not overall.get("n"):
            notes.append(f"{r.name}: every figure — no task was answered ({overall.get('errors', 0)} failed).")
            continue
        for metric in METRICS[:4]:
            if overall.get(metric) is None:
                why = _METRIC_NOTES.get(metric, "no answered task it applies to")
                notes.append(f"{r.name}: {metric} — {why}.")
        if (r.ambdif or {}).get(ALL) is None:
            why = (
                "the authors' AmbDif pairs row i with row i + 400 of their file, so it needs their 400 pairs"
                if document.get("metrics") == "authors"
                else "no pair with both halves answered"
            )
            notes.append(f"{r.name}: AmbDif — {why}.")
        for level, value in (record.get("SR_by_level") or {}).items():
            if value is None and level != ALL:
                notes.append(f"{r.name}: SR on the {level} level — no answered half of that level has SR (no graph).")
        cqr = (r.extra or {}).get("CQR")
        if isinstance(cqr, dict) and cqr.get(ALL) is None:
            notes.append(f"{r.name}: CQR — it never asked on an ambiguous half, so there is no question to judge.")
    return notes


def render_report(document: dict[str, Any], results: Sequence[MethodResult]) -> str:
    labels = {name: t.label for name, t in ambiguity.types().items()}
    labels.update({UNAMBIGUOUS: "Unambiguous", ALL: "All"})
    groups = groups_in(results)
    return _ENV.get_template("eval.html.j2").render(
        d=document,
        results=results,
        groups=groups,
        labels=labels,
        metrics=METRICS[:4],
        plots=plots(results),
        own=own_figures(results, groups),
        paper=paper_figures(),
        undefined=undefined_notes(document, results),
        calibrated=[r for r in results if (document["methods"].get(r.name) or {}).get("calibration")],
        pace=pace_line(document.get("pace")),
    )


def write_outputs(folder: Path, document: dict[str, Any], results: Sequence[MethodResult]) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    write_jsonl_atomic(folder / "results.jsonl", (row for r in results for row in r.rows))
    table = pa.Table.from_pylist(flat_rows(results))
    with atomic_path(folder / "results.parquet") as tmp:
        pq.write_table(table, tmp, compression="zstd")
    write_json_atomic(folder / "results.json", document)
    write_text_atomic(folder / "report.html", render_report(document, results))
    return folder
