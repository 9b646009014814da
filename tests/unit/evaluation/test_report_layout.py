"""``eval/<name>/report.html``: AmbiK's table layout (methods x types: ICR, HR, CHR, SSC; AmbDif), each figure
with its n, the calibration figures and the help rate vs correct help rate plot per method."""

from __future__ import annotations

import re
from pathlib import Path

from tests.unit.evaluation.test_rescore_cli import evaluated


def test_report_has_ambiks_layout_and_the_help_plot(tmp_path: Path) -> None:
    document = evaluated(tmp_path, "authors")
    html = (Path(document["folder"]) / "report.html").read_text(encoding="utf-8")
    summary = html.split("laid out like AmbiK", 1)[1].split("</table>", 1)[0]
    for method in ("knowno", "lap", "lofreecp", "binary", "nohelp"):
        assert f"<tr><td>{method}</td>" in summary
    # the test split holds a common sense and a safety pair: four metrics for each of four groups (two types,
    # unambiguous, all), each with its n, then AmbDif with its pairs, for five methods
    assert summary.count('<th class="num">ICR</th>') == 4 and summary.count('<th class="num">SSC</th>') == 4
    assert len(re.findall(r"n=\d+", summary)) == 5 * 4 * 4 and summary.count("pairs=") == 5
    assert "Conformal calibration" in html and "authors metrics" in html
    assert 'alt="Help rate vs correct help rate per method"' in html
    assert html.count("data:image/png;base64") == 3
