"""``ambiforge validate``: audit items (JSONL, Parquet) or a published AmbiK CSV."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from ambiforge.cli.common import config_from, console
from ambiforge.errors import InputError


def validate(
    path: Annotated[Path, typer.Argument(help="items .jsonl/.parquet or an AmbiK .csv")],
    out: Annotated[Path | None, typer.Option(help="report folder (default: <PATH's folder>/validation)")] = None,
    released: Annotated[Path | None, typer.Option(help="an earlier release (folder or file) to check against")] = None,
    mix: Annotated[bool, typer.Option(help="expect the configured type mix")] = True,
    config: Annotated[Path | None, typer.Option(help="ambiforge.toml to use")] = None,
) -> None:
    """Check every item rule and the dataset expectations; write report.json, issues.csv, report.html and the
    Great Expectations results (expectations.json, data_docs/); print the report's path. Exit 0: no
    error-severity rule and no dataset expectation failed; 1: some did; 2: unreadable or empty input (no
    item: nothing to validate, and no report is written). Warns about CSV cells a spreadsheet would run as
    formulas."""
    from ambiforge import api

    def counted(n: int) -> None:
        if n == 0:  # after the first pass, before any report: an empty file is the input's fault, not a failed audit
            raise InputError(str(path), "", "empty input: no items to validate (an empty file, or a header only)")
        console.print(f"validating {n} items from {path}")

    done = api.validate(
        path, config=config_from(config), out=out, released=released, mix=mix, on_count=counted
    ).to_dict()
    report, json_path, html_path = done["report"], done["report_json"], done["report_html"]
    s = report["summary"]
    failed_expectations = done["expectations"]["failed"]
    colour = "red" if s["with_errors"] or failed_expectations else "green"
    console.print(
        f"[{colour}]{s['passed']} of {s['items']} items pass[/]; {s['with_errors']} with errors, "
        f"{s['with_warnings']} with warnings; dataset expectations failed: {failed_expectations}"
    )
    for cause in report.get("causes", []):
        console.print(
            f"  cause: {cause['what']}: ids {cause['first']}-{cause['last']} ({cause['rows']} of {cause['span']} rows "
            f"flagged by {cause['rule']}); fix: {cause['fix']}",
            soft_wrap=True,
        )
    flagged = [(rid, e) for rid, e in report["rules"].items() if e["count"]]
    for rule_id, entry in sorted(flagged, key=lambda kv: -kv[1].get("outside_causes", kv[1]["count"])):
        n = entry.get("outside_causes", entry["count"])
        under = f" (+{entry['in_causes']} under the cause)" if entry.get("in_causes") else ""
        console.print(f"  {rule_id:<20} {entry['severity']:<8} {n:>6}{under}  e.g. {entry['examples'][0]['id']}")
    if quiet := len(report["rules"]) - len(flagged):
        console.print(f"  ({quiet} rules flagged nothing)")
    console.print(f"report: {html_path}", soft_wrap=True)  # a path broken over two lines cannot be copied
    console.print(f"        (beside it: {json_path.name}, issues.csv, expectations.json, data_docs/index.html)")
    formulas = done["formula_cells"]
    if formulas["count"]:
        cells = f"{formulas['count']} cell{'s' if formulas['count'] > 1 else ''}"
        console.print(
            f"[yellow]warning: {cells} of {path} would run as formulas in a spreadsheet "
            f"(e.g. {'; '.join(formulas['examples'])}); export-ambik and release write them behind an "
            "apostrophe[/]",
            soft_wrap=True,
        )
    if s["with_errors"] or failed_expectations:
        raise typer.Exit(1)
