"""``eval/<name>/report.html``: how to read it first, a summary that fits a laptop screen (methods x the
headline figures over all tasks, with the AmbiK paper's column and its source), the per-type tables, a note
for each undefined figure, and the calibration figures and plots; ``eval rescore`` writes the same page."""

from __future__ import annotations

import re
from pathlib import Path

from ambiforge.evaluation.output import pace_line, paper_figures
from tests.unit.evaluation.test_rescore_cli import evaluated


def test_report_reads_definitions_first_then_a_narrow_summary_and_the_plots(tmp_path: Path) -> None:
    document = evaluated(tmp_path, "authors")
    html = (Path(document["folder"]) / "report.html").read_text(encoding="utf-8")
    assert html.index('id="how-to-read"') < html.index("<table>") and html.count("How to read this") == 1
    summary = html.split("laid out like AmbiK", 1)[1].split("</table>", 1)[0]
    for method in ("knowno", "lap", "lofreecp", "binary", "nohelp"):
        assert f"<tr><td>{method}</td>" in summary
    # one row per method: answered/failed, four metrics each with its n, set size, AmbDif with its pairs, the
    # paper's column; no per-type column (those are in the per-type tables)
    header = summary.split("</tr>", 1)[0]
    assert len(re.findall(r"<th", header)) == 1 + 1 + 4 + 1 + 1 + 1 and "Preferences" not in header
    assert len(re.findall(r"n=\d+", summary)) == 5 * 4 and summary.count("pairs=") == 5
    source = html.split('id="paper-source"', 1)[1].split("</p>", 1)[0]
    assert "2506.04089" in source and "ACL 2025" in source
    if not paper_figures()["figures"]:
        assert "paper_figures.yaml" in source and "not yet entered" in source
    for metric in ("ICR", "HR", "CHR", "SSC"):
        assert f"({metric}) per type" in html
    assert "Conformal calibration" in html and "authors metrics" in html
    assert 'alt="Help rate vs correct help rate per method"' in html
    assert html.count("data:image/png;base64") == 3


def test_an_undefined_figure_says_why(tmp_path: Path) -> None:
    """The authors' AmbDif pairs row i with row i + 400: on a small run it is undefined, and the page says
    so under the summary rather than leaving a bare dash."""
    document = evaluated(tmp_path, "authors")
    html = (Path(document["folder"]) / "report.html").read_text(encoding="utf-8")
    assert all(r["ambdif"]["all"] is None for r in document["methods"].values())
    notes = html.split('id="undefined"', 1)[1].split("</ul>", 1)[0]
    assert notes.count("AmbDif — the authors&#39; AmbDif") == 5 and "needs their 400 pairs" in notes


def test_the_pace_line_names_the_rate_limit_only_when_it_set_the_pace() -> None:
    limited = {"rpm": 300, "concurrency": 8, "calls": 620, "rate_wait": 100.0, "slot_wait": 8.0, "call": 4.0}
    line = pace_line({**limited, "rate_limited": True})
    assert line is not None and line.startswith("the rate limit ([llm] rpm = 300, --rpm) set the pace: 100.0 s of")
    assert "112.0 s waiting" in line
    assert pace_line({**limited, "rate_limited": False}) is None and pace_line(None) is None
