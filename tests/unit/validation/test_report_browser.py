"""The validation report as a curator sees it: opened in headless Chromium (Debian's /usr/bin/chromium, no
network), with every issue listed and the rule filter hiding the other rows."""

from __future__ import annotations

import csv
import json
import re
import shutil
import subprocess
import tempfile
from pathlib import Path

import pytest

from ambiforge.cli.main import main
from tests.conftest import REPO

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
FLAGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--window-size=1400,1000",
]
pytestmark = pytest.mark.skipif(not Path(CHROMIUM).exists(), reason="needs Debian's chromium")


def chromium(*args: str) -> subprocess.CompletedProcess[str]:
    with tempfile.TemporaryDirectory() as profile:
        return subprocess.run(
            [CHROMIUM, *FLAGS, f"--user-data-dir={profile}", *args],
            capture_output=True,
            text=True,
            timeout=120,
            check=True,
        )


@pytest.fixture(scope="module")
def report_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("report")
    assert main(["validate", str(REPO / "tests" / "data" / "validation_cases.csv"), "--out", str(out), "--no-mix"]) == 1
    return out


def test_issues_csv_lists_every_flag_with_its_text(report_dir: Path) -> None:
    report = json.loads((report_dir / "report.json").read_text())
    with (report_dir / "issues.csv").open(encoding="utf-8") as fh:
        rows = list(csv.DictReader(fh))
    assert list(rows[0]) == ["id", "rule", "severity", "field", "message", "snippet"]
    assert len(rows) == report["summary"]["flags"] == sum(len(i["failed"]) for i in report["items"])
    stray = next(r for r in rows if r["rule"] == "corruption" and "0:" in r["message"])
    assert stray["field"] == "plan_for_clear_task[0]" and stray["snippet"].startswith("0: Pick up")
    assert report["summary"]["report_path"] == str(report_dir / "report.html")
    # items, not flags: answer_leak fires twice on one row of d_answer_leak's kind but counts items
    per_rule_items = {r: len({i["id"] for i in report["issues"] if i["rule"] == r}) for r in report["rules"]}
    assert all(report["rules"][r]["count"] == n for r, n in per_rule_items.items())


def test_report_opens_in_chromium_and_filters_by_rule(report_dir: Path) -> None:
    page = (report_dir / "report.html").as_uri()
    shot = report_dir / "report.png"
    chromium(f"--screenshot={shot}", page)
    assert shot.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" and shot.stat().st_size > 20_000

    dom = chromium("--dump-dom", page + "#rule=corruption").stdout
    rows = re.findall(r'<tr class="issue" data-rule="([a-z_]+)"[^>]*?( hidden="")?>', dom)
    assert len(rows) == len(json.loads((report_dir / "report.json").read_text())["issues"])
    shown = {rule for rule, hidden in rows if not hidden}
    assert shown == {"corruption"}
    assert any(hidden for rule, hidden in rows if rule != "corruption")
    assert re.search(r'id="shown"[^>]*>(\d+) of (\d+) issues shown<', dom)

    everything = chromium("--dump-dom", page).stdout
    assert 'hidden=""' not in everything.split('id="issues"')[1].split("</table>")[0]
    assert "Pour the oat milk into the gl" in everything  # the flagged items' texts are on the page
