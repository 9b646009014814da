"""The eval report as a researcher opens it: a 30-pair eval of a release through the scripted server, its
``report.html`` in headless Chromium (Debian's /usr/bin/chromium, no network) at 1,280 px: the definitions
come before the first table, and nothing is wider than the screen (neither the page nor any table's box)."""

from __future__ import annotations

import re
import shutil
import subprocess
import tempfile
from pathlib import Path

import pytest

from ambiforge.config.llm import LLMConfig
from ambiforge.evaluation.command import EvalOptions, run_eval
from ambiforge.generation.mix import type_sequence
from ambiforge.generation.offline import OfflineGenerator
from ambiforge.releases.writer import ReleaseOptions, release
from ambiforge.storage import write_items_jsonl
from ambiforge.testing.llm_server import ScriptedLLMServer
from ambiforge.testing.scripted_eval import server_responder

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
WIDTH = 1280
MIX = {"preferences": 0.472, "common_sense_knowledge": 0.398, "safety": 0.13}
pytestmark = pytest.mark.skipif(not Path(CHROMIUM).exists(), reason="needs Debian's chromium")

# read after the page (and its embedded plots) has loaded; written into the DOM for --dump-dom to carry out
PROBE = """<script>
window.addEventListener("load", () => {
  const root = document.documentElement;
  const defs = document.getElementById("how-to-read"), table = document.querySelector("table");
  const first = defs && table && (defs.compareDocumentPosition(table) & Node.DOCUMENT_POSITION_FOLLOWING) ? 1 : 0;
  const wide = [...document.querySelectorAll(".table-box")].filter(b => b.scrollWidth > b.clientWidth).length;
  root.setAttribute("data-probe", `sw=${root.scrollWidth};cw=${root.clientWidth};first=${first};wide=${wide}`);
});
</script>"""


def chromium(*args: str, height: int = 900) -> str:
    with tempfile.TemporaryDirectory() as profile:
        return subprocess.run(
            [
                CHROMIUM,
                "--headless",
                "--no-sandbox",
                "--disable-gpu",
                "--hide-scrollbars",
                "--disable-background-networking",
                "--disable-component-update",
                "--disable-sync",
                "--no-first-run",
                "--virtual-time-budget=5000",
                f"--window-size={WIDTH},{height}",
                f"--user-data-dir={profile}",
                *args,
            ],
            capture_output=True,
            text=True,
            timeout=120,
            check=True,
        ).stdout


@pytest.fixture(scope="module")
def report(tmp_path_factory: pytest.TempPathFactory, catalog) -> Path:  # type: ignore[no-untyped-def]
    tmp = tmp_path_factory.mktemp("screen")
    gen = OfflineGenerator(catalog, 5, "r1")
    items = [gen.generate(i, t)[0] for i, t in enumerate(type_sequence(40, MIX, 5))]
    write_items_jsonl(tmp / "raw" / "r1" / "items.jsonl", items)
    folder = release(
        ReleaseOptions(
            version="1.0.0",
            run_ids=["r1"],
            raw=tmp / "raw",
            curated=tmp / "curated",
            annotation=tmp / "annotation",
            allow_unreviewed=True,
            calibration_size=10,
            seed=3,
            target_mix=MIX,
            mix_tolerance=0.2,
        )
    )
    mp = pytest.MonkeyPatch()
    with ScriptedLLMServer(server_responder, api_key="sk-eval") as server, mp.context() as env:
        env.setenv("OPENAI_API_KEY", "sk-eval")
        env.setenv("OPENAI_BASE_URL", server.openai_url)
        document = run_eval(
            EvalOptions(
                data=folder,
                model="scripted",
                methods=("knowno", "lap", "lofreecp", "binary", "nohelp"),
                out=tmp / "eval",
                cache_dir=tmp / "cache",
                name="screen",
                llm=LLMConfig(rpm=0, max_retries=0, timeout_seconds=10),
            )
        )
    assert document["pairs"] == 30
    return Path(document["folder"]) / "report.html"


def test_report_fits_1280_px_with_the_definitions_first(report: Path) -> None:
    probe = report.with_name("probe.html")
    probe.write_text(report.read_text(encoding="utf-8").replace("</body>", PROBE + "</body>"), encoding="utf-8")
    dom = chromium("--dump-dom", probe.as_uri())
    found = re.search(r'data-probe="sw=(\d+);cw=(\d+);first=(\d);wide=(\d+)"', dom)
    assert found, dom[:300]
    scroll_width, client_width, first, wide = map(int, found.groups())
    assert scroll_width <= WIDTH and scroll_width <= client_width  # no horizontal scroll on the page
    assert wide == 0  # and none inside a table's own box either
    assert first == 1  # "How to read this" comes before the first table

    shot = report.with_name("report-1280.png")
    chromium(f"--screenshot={shot}", report.as_uri(), height=2400)
    assert shot.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" and shot.stat().st_size > 20_000


def test_a_rate_limited_eval_says_the_rate_limit_set_the_pace(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    catalog,  # type: ignore[no-untyped-def]
) -> None:
    """At rpm = 1200 (calls 50 ms apart) the scripted server answers in a few ms: the window, not the
    model, sets the pace, and the summary and the report say so with the figures."""
    from ambiforge.cli.eval import print_table

    gen = OfflineGenerator(catalog, 5, "r1")
    items = write_items_jsonl(
        tmp_path / "items.jsonl", [gen.generate(i, t)[0] for i, t in enumerate(type_sequence(6, MIX, 5))]
    )
    mp = pytest.MonkeyPatch()
    with ScriptedLLMServer(server_responder, api_key="sk-eval") as server, mp.context() as env:
        env.setenv("OPENAI_API_KEY", "sk-eval")
        env.setenv("OPENAI_BASE_URL", server.openai_url)
        document = run_eval(
            EvalOptions(
                data=items,
                model="scripted",
                methods=("knowno", "binary"),
                out=tmp_path / "eval",
                cache_dir=tmp_path / "cache",
                name="paced",
                calibration_size=2,
                llm=LLMConfig(rpm=1200, max_retries=0, timeout_seconds=10),
            )
        )
    pace = document["pace"]
    assert pace["rpm"] == 1200 and pace["calls"] == len(server.requests) > 5
    assert pace["rate_limited"] and pace["rate_wait"] > pace["call"]
    print_table(document)
    out = " ".join(capsys.readouterr().err.split())  # the console (rich) writes to stderr
    assert "the rate limit ([llm] rpm = 1200, --rpm) set the pace:" in out
    html = (Path(document["folder"]) / "report.html").read_text(encoding="utf-8")
    assert 'id="pace"' in html and "rpm = 1200" in html
