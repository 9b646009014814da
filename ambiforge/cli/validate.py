"""``ambiforge validate``: audit items (JSONL, Parquet) or a published AmbiK CSV."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from ambiforge.cli.common import config_from, console
from ambiforge.errors import InputError
from ambiforge.models import Item


def read_any(path: Path) -> list[Item]:
    """Items from ``.jsonl``, ``.parquet`` or an AmbiK ``.csv``; errors name file and row."""
    if path.suffix.lower() == ".csv":
        from ambiforge.ambik import read_ambik_csv

        return read_ambik_csv(path)
    if path.suffix.lower() not in (".jsonl", ".parquet"):
        raise InputError(str(path), "", "expected a .jsonl, .parquet or AmbiK .csv file")
    from ambiforge.storage import read_items

    return read_items(path)


def released_tasks(path: Path | None) -> dict[str, str]:
    """Normalised unambiguous task -> id, from an earlier release folder or items file."""
    if path is None:
        return {}
    from ambiforge.textnorm import normalise
    from ambiforge.validation.stream import item_batches

    source = path / "data.jsonl" if path.is_dir() else path
    return {normalise(i.unambiguous_direct): i.id for batch in item_batches(source)() for i in batch}


def validate(
    path: Annotated[Path, typer.Argument(help="items .jsonl/.parquet or an AmbiK .csv")],
    out: Annotated[Path | None, typer.Option(help="report folder (default: <PATH's folder>/validation)")] = None,
    released: Annotated[Path | None, typer.Option(help="an earlier release (folder or file) to check against")] = None,
    mix: Annotated[bool, typer.Option(help="expect the configured type mix")] = True,
    config: Annotated[Path | None, typer.Option(help="ambiforge.toml to use")] = None,
) -> None:
    """Check every item rule and the dataset expectations; write report.json, issues.csv, report.html and the
    Great Expectations results (expectations.json, data_docs/); print the report's path. Exit 0: no
    error-severity rule failed; 1: some did; 2: unreadable input."""
    from ambiforge.catalog import cached_catalog
    from ambiforge.validation import RuleContext
    from ambiforge.validation.report import write_report
    from ambiforge.validation.stream import item_batches, validate_stream

    cfg = config_from(config)
    batches = item_batches(path)  # read twice, a batch at a time: any size of file fits in memory
    ctx = RuleContext(
        catalog=cached_catalog(cfg.paths.catalog), config=cfg.validation, known_tasks=released_tasks(released)
    )
    done = validate_stream(
        batches,
        ctx,
        str(path),
        target_mix=cfg.build.type_mix if mix else None,
        tolerance=cfg.validation.type_mix_tolerance,
        max_plan_steps=cfg.validation.max_plan_steps,
        on_count=lambda n: console.print(f"validating {n} items from {path}"),
    )
    report, expectations = done.report, done.expectations
    folder = out or path.parent / "validation"
    expectations.save(folder)
    json_path, html_path = write_report(
        report,
        done.flagged,  # type: ignore[arg-type]
        folder,
        target_mix=cfg.build.type_mix if mix else None,
        diversity=done.diversity,
        plots=done.plots,
    )
    s = report["summary"]
    failed_expectations = expectations.to_dict()["failed"]
    colour = "red" if s["with_errors"] else "green"
    console.print(
        f"[{colour}]{s['passed']} of {s['items']} items pass[/]; {s['with_errors']} with errors, "
        f"{s['with_warnings']} with warnings; dataset expectations failed: {failed_expectations}"
    )
    for rule_id, entry in sorted(report["rules"].items(), key=lambda kv: -kv[1]["count"]):
        if entry["count"]:
            console.print(
                f"  {rule_id:<18} {entry['severity']:<8} {entry['count']:>6}  e.g. {entry['examples'][0]['id']}"
            )
    console.print(f"report: {html_path}", soft_wrap=True)  # a path broken over two lines cannot be copied
    console.print(f"        (beside it: {json_path.name}, issues.csv, expectations.json, data_docs/index.html)")
    if s["with_errors"]:
        raise typer.Exit(1)
