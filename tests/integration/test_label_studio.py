"""Review against a real Label Studio server: push, three annotators, pull, agreement, adjudication,
errors, and a Chromium screenshot of the labeling page.

The server runs from its own virtual environment (``make label-studio``; ``$AMBIFORGE_LS_VENV`` or
``.ls-venv``), on 127.0.0.1 with a fresh data directory, once for the session.
"""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from markupsafe import escape

from ambiforge.errors import InputError
from ambiforge.review.client import ReviewError, connect
from ambiforge.review.pull import pull
from ambiforge.review.push import ReviewPaths, push
from ambiforge.review.tasks import choice, textarea
from ambiforge.storage import read_items, write_items_jsonl
from tests.conftest import REPO
from tests.integration import processes

TOKEN = "0123456789abcdef0123456789abcdef01234567"
ADMIN, PASSWORD = "admin@ambiforge.test", "ambiforge-admin-pw"
A, F, R = "accept", "accept_with_fixes", "reject"
# slow: the server starts in 30 s or more, and each test is a round of HTTP calls to it
pytestmark = pytest.mark.slow

MATRIX = [[A, A, A], [A, A, A], [A, A, R], [R, R, R], [A, R, R], [A, F, R]]  # see test_review_agreement.py


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture(scope="session")
def label_studio() -> Iterator[str]:
    venv = Path(os.environ.get("AMBIFORGE_LS_VENV") or REPO / ".ls-venv")
    binary = venv / "bin" / "label-studio"
    if not binary.exists():
        pytest.fail(f"Label Studio is not installed at {binary}: run `make label-studio` (make test does)")
    port = _free_port()
    data = tempfile.mkdtemp(prefix="ls-data-")
    env = {
        **os.environ,
        "LABEL_STUDIO_BASE_DATA_DIR": data,
        "LABEL_STUDIO_USERNAME": ADMIN,
        "LABEL_STUDIO_PASSWORD": PASSWORD,
        "LABEL_STUDIO_USER_TOKEN": TOKEN,
        # no request to pypi.org for a newer release, made on import with a 10 s timeout
        "LABEL_STUDIO_LATEST_VERSION_CHECK": "false",
    }
    log = open(Path(data) / "server.log", "w")  # noqa: SIM115 - closed at teardown
    proc = subprocess.Popen(
        [str(binary), "start", "--no-browser", "--host", "127.0.0.1", "--port", str(port), "--enable-legacy-api-token"],
        env=env,
        stdout=log,
        stderr=subprocess.STDOUT,
    )
    url = f"http://127.0.0.1:{port}"
    try:  # one server for the session, stopped at the end whatever happens
        # its first start migrates a fresh database: minutes when the suite's other workers share the cores
        deadline = time.monotonic() + 480
        while time.monotonic() < deadline:
            if proc.poll() is not None:
                pytest.fail(f"Label Studio exited with {proc.returncode}; see {data}/server.log")
            try:
                if httpx.get(f"{url}/health", timeout=2).status_code == 200:
                    break
            except httpx.TransportError:
                pass
            time.sleep(1)
        else:
            pytest.fail("Label Studio did not become healthy in 480 s")
        yield url
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(timeout=30)
        log.close()


@pytest.fixture()
def ls_env(label_studio: str, monkeypatch: pytest.MonkeyPatch) -> str:
    monkeypatch.setenv("LABEL_STUDIO_URL", label_studio)
    monkeypatch.setenv("LABEL_STUDIO_API_KEY", TOKEN)
    return label_studio


@pytest.fixture(scope="session")
def annotators(label_studio: str) -> list[int]:
    from label_studio_sdk import LabelStudio

    client = LabelStudio(base_url=label_studio, api_key=TOKEN)
    return [
        client.users.create(username=n, email=f"{n}@ambiforge.test", password="pw-annotator-1").id
        for n in ("ann1", "ann2", "ann3")
    ]


def make_run(tmp: Path, run_id: str, catalog, n: int = 6) -> ReviewPaths:  # type: ignore[no-untyped-def]
    from ambiforge.generation.offline import OfflineGenerator

    gen = OfflineGenerator(catalog, 11, run_id)
    write_items_jsonl(tmp / "raw" / run_id / "items.jsonl", [gen.generate(i, "preferences")[0] for i in range(n)])
    return ReviewPaths(tmp / "raw", tmp / "annotation")


def annotate(url: str, paths: ReviewPaths, run_id: str, users: list[int]) -> list[str]:
    client, _ = connect()
    mapping = json.loads((paths.folder(run_id) / "tasks.json").read_text())["tasks"]
    ordered = sorted(mapping.items(), key=lambda kv: kv[1])
    for row, (_item_id, task_id) in enumerate(ordered):
        for k, (user, verdict) in enumerate(zip(users, MATRIX[row], strict=True)):
            result = [choice("verdict", [verdict]), choice("ambiguity_type", ["preferences"])]
            if row == 0 and k < 2:  # two annotators agree on a corrected question
                result.append(textarea("fix_question", "Which one should I take?"))
            client.annotations.create(id=task_id, result=result, completed_by=user)
    return [item_id for item_id, _ in ordered]


def test_push_annotate_pull_agreement_and_adjudication(ls_env, annotators, tmp_path, catalog) -> None:  # type: ignore[no-untyped-def]
    paths = make_run(tmp_path, "rev1", catalog)
    first = push("rev1", paths, project="ambiforge rev1")
    again = push("rev1", paths, project="ambiforge rev1")
    assert (first["imported"], again["imported"], again["already_there"]) == (6, 0, 6)
    # The command, as a maintainer runs it: in-process (no Prefect server), the same project, nothing new.
    config = tmp_path / "review.toml"
    config.write_text(f'[paths]\nraw = "{paths.raw}"\nannotation = "{paths.annotation}"\n', encoding="utf-8")
    env = {k: v for k, v in os.environ.items() if k != "PREFECT_API_URL"} | {"PREFECT_HOME": str(tmp_path / "ph")}
    cmd = [sys.executable, "-m", "ambiforge.cli.main", "review", "push", "--run", "rev1", "--config", str(config)]
    command = processes.run([*cmd, "--project", "ambiforge rev1"], cwd=REPO, env=env, timeout=300)
    assert command.returncode == 0, command.stderr
    assert f"(id {first['project_id']}): imported 0, already there 6" in " ".join(command.stderr.split())
    assert not (tmp_path / "ph" / "prefect.db").exists()
    client, _ = connect()
    assert len(list(client.tasks.list(project=first["project_id"]))) == 6  # no duplicate tasks
    order = annotate(ls_env, paths, "rev1", annotators)

    agreement = pull("rev1", paths)
    verdict = agreement["verdict"]
    assert verdict["percent_agreement"] == pytest.approx(100 * 11 / 18, abs=1e-5)
    assert verdict["fleiss_kappa"] == pytest.approx(8 / 29, abs=1e-5)
    assert verdict["krippendorff_alpha"] == pytest.approx(55 / 174, abs=1e-5)
    assert sorted(verdict["cohen_kappa_pairwise"].values()) == pytest.approx(
        sorted([7 / 19, 4 / 22, 10 / 22]), abs=1e-5
    )
    assert agreement["status_counts"] == {"unanimous": 3, "majority": 2, "split": 1, "pending": 0}
    # annotators appear as stable pseudonyms (ann1 has the lowest user id: annotator-1)
    assert agreement["annotators"]["annotator-1"]["accept_rate"] == pytest.approx(5 / 6, abs=1e-5)

    items = {i.id: i for i in read_items(paths.items("rev1"))}
    expected = [("unanimous", A), ("unanimous", A), ("majority", A), ("unanimous", R), ("majority", R), ("split", None)]
    assert [(items[i].review.status, items[i].review.verdict) for i in order] == expected  # type: ignore[union-attr]
    corrected = items[order[0]]
    assert corrected.question == "Which one should I take?"
    assert corrected.review.applied_corrections[0].annotators == ["annotator-1", "annotator-2"]  # type: ignore[union-attr]
    queue = [json.loads(line) for line in (paths.folder("rev1") / "adjudication_queue.jsonl").read_text().splitlines()]
    assert [q["item_id"] for q in queue] == [order[5]]
    html = (paths.folder("rev1") / "agreement.html").read_text()
    assert "data:image/png;base64" in html and order[5] in html

    names = ("export.json", "agreement.json", "agreement.html", "adjudication_queue.jsonl")
    before = {n: (paths.folder("rev1") / n).read_bytes() for n in names} | {"items": paths.items("rev1").read_bytes()}
    pull("rev1", paths)  # pulling twice gives the same files
    after = {n: (paths.folder("rev1") / n).read_bytes() for n in names} | {"items": paths.items("rev1").read_bytes()}
    assert after == before

    # The maintainer decides the split item in the queue file; the next pull applies it.
    queue_path = paths.folder("rev1") / "adjudication_queue.jsonl"
    entry = json.loads(queue_path.read_text().splitlines()[0])
    queue_path.write_text(json.dumps(entry | {"verdict": "reject"}) + "\n")
    pull("rev1", paths)
    decided = {i.id: i for i in read_items(paths.items("rev1"))}[order[5]]
    assert (decided.review.status, decided.review.verdict) == ("adjudicated", "reject")  # type: ignore[union-attr]
    assert decided.review.adjudicated_by.startswith("maintainer")  # type: ignore[union-attr]


def test_errors_are_clear_and_leave_files_alone(ls_env, annotators, tmp_path, catalog, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    paths = make_run(tmp_path, "rev2", catalog, n=2)
    result = push("rev2", paths, project="ambiforge rev2")
    monkeypatch.setenv("LABEL_STUDIO_API_KEY", "f" * 40)
    with pytest.raises(ReviewError, match="refused the API key"):
        push("rev2", paths)
    monkeypatch.setenv("LABEL_STUDIO_API_KEY", TOKEN)
    monkeypatch.setenv("LABEL_STUDIO_URL", f"http://127.0.0.1:{_free_port()}")
    with pytest.raises(ReviewError, match="cannot reach Label Studio"):
        pull("rev2", paths)
    monkeypatch.setenv("LABEL_STUDIO_URL", ls_env)
    items_before = paths.items("rev2").read_bytes()
    mapping_path = paths.folder("rev2") / "tasks.json"
    mapping = json.loads(mapping_path.read_text())
    mapping["tasks"]["amb-not-in-this-run"] = max(mapping["tasks"].values())
    mapping_path.write_text(json.dumps(mapping))
    with pytest.raises(InputError, match="refers to item 'amb-not-in-this-run'"):
        pull("rev2", paths)
    client, _ = connect()
    client.projects.delete(id=result["project_id"])
    with pytest.raises(ReviewError, match="was the project deleted"):
        pull("rev2", paths)
    assert paths.items("rev2").read_bytes() == items_before
    assert not (paths.folder("rev2") / "agreement.json").exists()


def prefilled(item_data: dict, **edits: str) -> list[dict]:  # type: ignore[type-arg]
    """The correction boxes as the labeling page submits them: every box with its pre-filled text, except
    the edited ones."""
    from ambiforge.review.tasks import CORRECTION_FIELDS

    return [textarea(name, edits.get(field, item_data[field])) for name, field in CORRECTION_FIELDS.items()]


def release_files_text(folder: Path) -> str:
    """Every file of a release as text (Parquet and gzip decoded: their bytes are compressed)."""
    import gzip

    import pyarrow.parquet as pq

    parts = []
    for path in sorted(p for p in folder.rglob("*") if p.is_file()):
        if path.suffix == ".parquet":
            table = pq.read_table(path)
            parts.append(json.dumps(table.to_pylist(), default=str) + str(table.schema.metadata))
        elif path.suffix == ".gz":
            parts.append(gzip.decompress(path.read_bytes()).decode("utf-8"))
        else:
            parts.append(path.read_text(encoding="utf-8"))
    return "\n".join(parts)


def test_review_decisions_reach_the_release_under_pseudonyms(ls_env, annotators, tmp_path, catalog) -> None:  # type: ignore[no-untyped-def]
    from ambiforge.releases.files import read_rows
    from ambiforge.releases.writer import ReleaseOptions, release

    paths = make_run(tmp_path, "rev5", catalog)
    push("rev5", paths, project="ambiforge rev5")
    client, _ = connect()
    mapping = json.loads((paths.folder("rev5") / "tasks.json").read_text())["tasks"]
    order = [item_id for item_id, _ in sorted(mapping.items(), key=lambda kv: kv[1])]
    data = {
        t.data["item_id"]: t.data
        for t in client.tasks.list(project=json.loads((paths.folder("rev5") / "tasks.json").read_text())["project_id"])
    }
    P, S, C = "preferences", "safety", "common_sense_knowledge"
    plan = {  # item -> per annotator: (verdict, type, corrections)
        0: [(A, P, {}), (A, S, {}), (A, S, {})],  # 2 of 3 say safety: released as safety
        1: [(A, P, {}), (A, S, {}), (A, C, {})],  # three-way type split: queued
        2: [(F, P, {"question": "Which one do you want?"}), (F, P, {"question": "Which mug?"}), (A, P, {})],  # conflict
        3: [(A, P, {}), (A, P, {"answer": data[order[3]]["answer"].upper() + "  "}), (A, P, {})],  # no real change
        4: [(R, P, {}), (R, P, {}), (A, P, {})],  # rejected
        5: [(F, P, {"answer": "The  RED one, please."}), (F, P, {"answer": "the red one, please."}), (R, P, {})],
    }
    for row, votes in plan.items():
        item_id = order[row]
        for user, (verdict, type_, edits) in zip(annotators, votes, strict=True):
            result = [
                choice("verdict", [verdict]),
                choice("ambiguity_type", [type_]),
                *prefilled(data[item_id], **edits),
            ]
            client.annotations.create(id=mapping[item_id], result=result, completed_by=user)
    pull("rev5", paths)
    queue_path = paths.folder("rev5") / "adjudication_queue.jsonl"
    queue = [json.loads(line) for line in queue_path.read_text().splitlines()]
    assert [q["item_id"] for q in queue] == [order[1], order[2]]
    assert queue[0]["reasons"] == ["type split: common_sense_knowledge, preferences, safety"]
    assert queue[1]["reasons"] == ["different corrections of question"]
    html = (paths.folder("rev5") / "agreement.html").read_text()
    for q in queue:  # every queued item with its text, each annotator's choices and a link to the task
        assert q["item_id"] in html and str(escape(q["text"]["ambiguous_task"])) in html  # as the page escapes it
        assert "/projects/" in q["label_studio"] and f"task={mapping[q['item_id']]}" in q["label_studio"]
        assert q["label_studio"] in html
    assert "Which one do you want?" in html and "annotator-3" in html

    def opts(version: str) -> ReleaseOptions:
        return ReleaseOptions(
            version=version, run_ids=["rev5"], raw=paths.raw, curated=tmp_path / "curated",
            annotation=paths.annotation, calibration_size=1, target_mix=None,
        )  # fmt: skip

    first = {r["id"]: r for r in read_rows(release(opts("1.0.0")) / "data.jsonl.gz")}
    assert set(first) == {order[0], order[3], order[5]}  # queued and rejected items are not released
    assert first[order[0]]["ambiguity_type"] == S
    assert first[order[3]]["answer"] == data[order[3]]["answer"]  # case and spacing are no correction
    assert first[order[5]]["answer"] == "The RED one, please."

    # The maintainer decides both queued items in the queue file; the next pull applies the decisions.
    decided = [
        queue[0] | {"verdict": "accept", "ambiguity_type": C},
        queue[1] | {"verdict": "accept_with_fixes", "corrections": {"question": "Which mug would you like?"}},
    ]
    queue_path.write_text("".join(json.dumps(q) + "\n" for q in decided))
    pull("rev5", paths)
    items_after = paths.items("rev5").read_bytes()
    pull("rev5", paths)  # decisions are applied the same way on every pull
    assert paths.items("rev5").read_bytes() == items_after
    second_folder = release(opts("1.1.0"))
    second = {r["id"]: r for r in read_rows(second_folder / "data.jsonl.gz")}
    changes = json.loads((second_folder / "manifest.json").read_text())["changes"]
    assert (changes["added"], changes["removed"], changes["changed"]) == (2, 0, 0)
    assert set(second) == {order[0], order[1], order[2], order[3], order[5]}
    assert second[order[1]]["ambiguity_type"] == C and second[order[1]]["review"]["status"] == "adjudicated"
    assert second[order[2]]["question"] == "Which mug would you like?"

    # No annotator e-mail or user name in any file of either release; the mapping stays in annotation/.
    users = [u for u in client.users.list() if u.id in annotators]
    secrets = {u.email for u in users} | {u.username for u in users} | {ADMIN}
    for version in ("1.0.0", "1.1.0"):
        text = release_files_text(tmp_path / "curated" / version)
        assert "annotator-1" in text
        assert [s for s in secrets if s in text] == []
    private = (paths.folder("rev5") / "annotators.json").read_text()
    assert all(u.email in private for u in users)


def test_invite_link_lets_an_annotator_sign_up_and_log_in(ls_env, tmp_path) -> None:  # type: ignore[no-untyped-def]
    from ambiforge.review.push import invite_link

    link = invite_link()
    assert link.startswith(ls_env) and "/user/signup/?token=" in link
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import WebDriverWait

    driver = chrome(tmp_path / "signup")
    try:
        driver.get(link)
        WebDriverWait(driver, 60).until(lambda d: d.find_elements(By.NAME, "email"))
        driver.find_element(By.NAME, "email").send_keys("new.annotator@ambiforge.test")
        driver.find_element(By.NAME, "password").send_keys("annotator-pw-123")
        driver.find_element(By.CSS_SELECTOR, "button[type=submit], input[type=submit]").click()
        WebDriverWait(driver, 60).until(lambda d: "/user/signup" not in d.current_url)
    finally:
        driver.quit()
    driver = chrome(tmp_path / "login")  # a fresh browser: the account logs in with its own password
    try:
        login(driver, ls_env, "new.annotator@ambiforge.test", "annotator-pw-123")
    finally:
        driver.quit()
    client, _ = connect()
    assert "new.annotator@ambiforge.test" in {u.email for u in client.users.list()}


def chrome(tmp_path: Path):  # type: ignore[no-untyped-def]
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = "/usr/bin/chromium"
    for flag in (
        "--headless=new",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--window-size=1400,1000",
        f"--user-data-dir={tmp_path / 'chrome'}",
    ):
        options.add_argument(flag)
    driver = webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)
    # the page itself is 1400 x 1000 CSS pixels (the window size includes the browser's own bars)
    driver.execute_cdp_cmd(
        "Emulation.setDeviceMetricsOverride", {"width": 1400, "height": 1000, "deviceScaleFactor": 1, "mobile": False}
    )
    return driver


def login(driver, url: str, email: str, password: str) -> None:  # type: ignore[no-untyped-def]
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import WebDriverWait

    driver.get(f"{url}/user/login/")
    WebDriverWait(driver, 60).until(lambda d: d.find_elements(By.NAME, "email"))
    driver.find_element(By.NAME, "email").send_keys(email)
    driver.find_element(By.NAME, "password").send_keys(password)
    driver.find_element(By.CSS_SELECTOR, "button[type=submit], input[type=submit]").click()
    WebDriverWait(driver, 60).until(lambda d: "/user/login" not in d.current_url)  # logged in


SECTIONS = ("Scene", "Clear task", "Ambiguous task", "Question and answer", "Plans", "Shortlist and intent",
            "Automatic checks", "Verdict", "Ambiguity type")  # fmt: skip


def test_labeling_page_screenshot_shows_the_item(ls_env, annotators, tmp_path, catalog) -> None:  # type: ignore[no-untyped-def]
    from selenium.webdriver.common.by import By

    paths = make_run(tmp_path, "rev3", catalog, n=1)
    result = push("rev3", paths, project="ambiforge rev3")
    item = read_items(paths.items("rev3"))[0]
    driver = chrome(tmp_path)
    try:
        login(driver, ls_env, ADMIN, PASSWORD)
        page = f"{ls_env}/projects/{result['project_id']}/data?labeling=1"  # "Label All Tasks", as annotators do
        driver.get(page)
        deadline, text, instructions = time.monotonic() + 90, "", ""
        while time.monotonic() < deadline:
            closers = driver.find_elements(By.CSS_SELECTOR, "button[aria-label='Close modal']")
            if closers:  # the guidelines come first, as the project's instructions
                shown = time.monotonic() + 20  # the modal's frame renders before its body on a loaded machine
                while time.monotonic() < shown:
                    instructions = driver.find_element(By.TAG_NAME, "body").text
                    if "Annotator guidelines" in instructions:
                        break
                    time.sleep(0.25)
                driver.save_screenshot(str(tmp_path / "instructions.png"))
                closers[0].click()
                time.sleep(1)
                continue
            text = driver.find_element(By.TAG_NAME, "body").text
            if item.ambiguous_task in text and "Verdict" in text and "Automatic checks" in text:
                break
            if f"/projects/{result['project_id']}/" not in driver.current_url:
                driver.get(page)  # a late redirect after login took us elsewhere
            time.sleep(0.5)
        time.sleep(1)
        shot = tmp_path / "labeling_page.png"
        driver.save_screenshot(str(shot))
        height = driver.execute_script("return window.innerHeight")
        bottoms = {
            label: driver.execute_script(
                "const el = [...document.querySelectorAll('h1,h2,h3,h4,h5,h6,span,div')].find("
                "e => e.children.length === 0 && e.textContent.trim().startsWith(arguments[0]));"
                "return el ? el.getBoundingClientRect().bottom : null;",
                label,
            )
            for label in SECTIONS
        }
        verdict_inputs = driver.execute_script(
            "return [...document.querySelectorAll('input[type=radio], input[type=checkbox]')].map(e => e.checked)"
        )
        readable = driver.find_elements(By.XPATH, "//*[normalize-space(text())='Accept with fixes']")
        accept_bottom = readable[0].rect["y"] + readable[0].rect["height"] if readable else None
    finally:
        driver.quit()
    assert "Annotator guidelines" in instructions and "Common sense knowledge" in instructions
    assert item.ambiguous_task in text
    assert item.environment[0].name in text  # the scene is on the page
    assert shot.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" and shot.stat().st_size > 10_000
    assert height == 1000
    missing = [label for label, bottom in bottoms.items() if bottom is None or bottom > height]
    assert missing == [], f"not visible without scrolling at 1400x1000: {missing}"
    assert accept_bottom is not None and accept_bottom < height  # readable choice names, the verdict in view
    assert verdict_inputs and not any(verdict_inputs)  # nothing pre-selected in a fresh annotation
    assert "accept_with_fixes" not in text and "Pipeline's type: Preferences" in text


@pytest.mark.usefixtures("prefect_harness")
def test_build_pushes_to_label_studio_when_configured(ls_env, tmp_path) -> None:  # type: ignore[no-untyped-def]
    from ambiforge.config.build import BuildOptions
    from flows.build import build_flow

    summary = build_flow(
        BuildOptions(run_id="rev4", pairs=12, seed=4, out=str(tmp_path / "raw")), str(tmp_path / "ann")
    )
    assert summary["review_push"]["imported"] == summary["items_written"] == 12
    assert (tmp_path / "ann" / "rev4" / "tasks.json").exists()
