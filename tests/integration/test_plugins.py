"""The recipes of ``docs/extending.md`` are the code that runs: every fenced block of the page with a
``file=`` name is written into a throwaway plugin package (``ambiplug``), whose ``pyproject.toml`` block
becomes the package's metadata (a ``*.dist-info`` folder, as an install leaves it). With only that
package on ``PYTHONPATH`` of the CLI, an offline build makes items of the plugin's type and its rule flags
them, an eval runs the plugin's method through the plugin's provider on the scripted server, and the
plugin's stage is in the stage registry, the fingerprint and an assembled pipeline."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

from ambiforge.testing.llm_server import ScriptedLLMServer
from ambiforge.testing.scripted_eval import server_responder
from tests.conftest import REPO

DOC = REPO / "docs" / "extending.md"
BLOCK = re.compile(r"^```(\w+) file=(\S+)\n(.*?)^```$", re.MULTILINE | re.DOTALL)


def recipes() -> dict[str, str]:
    """File name -> content of every block of the page that names a file."""
    found = {name: body for _, name, body in BLOCK.findall(DOC.read_text(encoding="utf-8"))}
    assert len(found) == len(BLOCK.findall(DOC.read_text(encoding="utf-8"))), "two blocks name one file"
    return found


def install(site: Path, files: dict[str, str]) -> dict[str, dict[str, str]]:
    """The package as ``pip install`` leaves it: its modules, and its metadata from the pyproject block."""
    project = tomllib.loads(files["pyproject.toml"])["project"]
    for name, body in files.items():
        if name != "pyproject.toml":
            (site / name).parent.mkdir(parents=True, exist_ok=True)
            (site / name).write_text(body, encoding="utf-8")
    info = site / f"{project['name']}-{project['version']}.dist-info"
    info.mkdir(parents=True)
    (info / "METADATA").write_text(
        f"Metadata-Version: 2.1\nName: {project['name']}\nVersion: {project['version']}\n", encoding="utf-8"
    )
    groups = project["entry-points"]
    (info / "entry_points.txt").write_text(
        "".join(
            f"[{group}]\n" + "".join(f"{k} = {v}\n" for k, v in eps.items()) + "\n" for group, eps in groups.items()
        ),
        encoding="utf-8",
    )
    return groups


def ambiforge(*args: str, cwd: Path, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "ambiforge.cli.main", *args],
        cwd=cwd,
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
        start_new_session=True,
    )


@pytest.fixture(scope="module")
def plugin(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, str], dict[str, dict[str, str]]]:
    """The folder of a project using the plugin, the CLI's environment, and the plugin's entry points."""
    root = tmp_path_factory.mktemp("plugin")
    groups = install(root / "site", recipes())
    (root / "ambiforge.toml").write_text(
        f'[paths]\nraw = "{root / "raw"}"\ncurated = "{root / "curated"}"\nannotation = "{root / "annotation"}"\n\n'
        "[llm]\nrpm = 0\nmax_retries = 0\n\n"
        "[build.type_mix]\npreferences = 0.3\ncommon_sense_knowledge = 0.3\nsafety = 0.1\namount = 0.3\n",
        encoding="utf-8",
    )
    path = os.pathsep.join([str(REPO), str(root / "site")])  # ambiforge's own metadata is the repository's
    env = {**os.environ, "PREFECT_HOME": str(root / "prefect"), "PYTHONPATH": path, "AMBIFORGE_CONFIG": ""}
    env.pop("PREFECT_API_URL", None)
    return root, env, groups


def test_the_recipes_declare_one_of_each_extension(plugin) -> None:  # type: ignore[no-untyped-def]
    _, _, groups = plugin
    assert set(groups) == {f"ambiforge.{g}" for g in ("types", "rules", "providers", "stages", "methods")}


@pytest.fixture(scope="module")
def made(plugin) -> tuple[subprocess.CompletedProcess[str], subprocess.CompletedProcess[str] | None]:  # type: ignore[no-untyped-def]
    """A 30-pair build with the plugin, and its release (None when the build failed): the tests that read
    them ask for this fixture, so none depends on another test having run first in the same worker."""
    root, env, _ = plugin
    built = ambiforge("build", "--provider", "offline", "--pairs", "30", "--seed", "4", "--run-id", "plug",
                      cwd=root, env=env)  # fmt: skip
    if built.returncode != 0:
        return built, None
    released = ambiforge("release", "--version", "1.0.0", "--from", "plug", "--allow-unreviewed",
                         "--calibration-size", "10", cwd=root, env=env)  # fmt: skip
    return built, released


def test_a_build_and_a_release_use_the_plugin_type_and_rule(plugin, made) -> None:  # type: ignore[no-untyped-def]
    root, _, _ = plugin
    built, released = made
    assert built.returncode == 0, built.stderr
    run = root / "raw" / "plug"
    items = [json.loads(line) for line in (run / "items.jsonl").read_text().splitlines()]
    amount = [i for i in items if i["ambiguity_type"] == "amount"]
    assert len(amount) == 9  # 30 % of 30 pairs, from the recipe's templates
    templates = {i["provenance"]["template"].split("#")[0] for i in amount}
    assert templates <= {"amount/pour_little", "amount/two_pieces"}
    flagged = [i for i in items if any(f["rule"] == "please" for f in i["validation"]["failed"])]
    assert flagged and all("please" not in i["answer"].lower() for i in flagged)
    assert all(i["validation"]["passed"] for i in amount)  # a warning does not reject
    report = json.loads((run / "validation" / "report.json").read_text())
    assert report["rules"]["please"]["severity"] == "warning"
    assert report["rules"]["please"]["count"] == len(flagged)
    assert list(report["rules"])[-1] == "please"  # a plugin's rules run after the built-ins

    assert released is not None and released.returncode == 0, released and released.stderr
    manifest = json.loads((root / "curated" / "1.0.0" / "manifest.json").read_text(encoding="utf-8"))
    assert manifest["counts"]["per_type"]["amount"] == 9
    assert "Amount" in (root / "curated" / "1.0.0" / "README.md").read_text(encoding="utf-8")


def test_an_eval_runs_the_plugin_method_through_the_plugin_provider(plugin, made) -> None:  # type: ignore[no-untyped-def]
    root, env, _ = plugin
    built, released = made
    assert released is not None and released.returncode == 0, (released or built).stderr
    audit = root / "gateway-audit.txt"
    with ScriptedLLMServer(server_responder, api_key="sk-gateway") as server:
        gateway = {"GATEWAY_API_KEY": "sk-gateway", "GATEWAY_BASE_URL": server.openai_url}
        gateway["GATEWAY_AUDIT_FILE"] = str(audit)
        evaluated = ambiforge("eval", "--data", str(root / "curated" / "1.0.0"), "--model", "scripted",
                              "--provider", "gateway", "--method", "scene_check", "--out", str(root / "eval"),
                              "--name", "plug", cwd=root, env={**env, **gateway, "OPENAI_API_KEY": ""})  # fmt: skip
        requests = len(server.requests)
    assert evaluated.returncode == 0, evaluated.stderr
    folder = root / "eval" / "plug"
    document = json.loads((folder / "results.json").read_text())
    assert document["provider"] == "gateway" and set(document["methods"]) == {"scene_check"}
    rows = [json.loads(line) for line in (folder / "results.jsonl").read_text().splitlines()]
    assert rows and {r["method"] for r in rows} == {"scene_check"} and len(rows) == 2 * document["pairs"]
    assert all("named" in r["details"] for r in rows)
    audited = audit.read_text().splitlines()
    assert requests > 0 and len(audited) == requests  # every request went through the plugin's provider
    assert all(line.startswith("scripted ") for line in audited)


def test_the_plugin_stage_is_registered_fingerprinted_and_checked(plugin, made) -> None:  # type: ignore[no-untyped-def]
    root, env, _ = plugin
    built, _ = made
    assert built.returncode == 0, built.stderr
    code = """
import json, sys
from ambiforge.config.build import BuildOptions
from ambiforge.engine.fingerprint import fingerprint_material
from ambiforge.stages import STAGES, StageContext, check_pipeline, get, names
from ambiforge.storage.items import read_items

items = read_items(sys.argv[1])
print(json.dumps({
    "names": names(),
    "origin": STAGES.origin("type_counts"),
    "available": check_pipeline(("type_counts",), ("items",)),
    "counts": get("type_counts").run(items, StageContext()),
    "fingerprint": fingerprint_material(BuildOptions(pairs=1), ("generation", "type_counts"))["stages"],
}))
"""
    done = subprocess.run([sys.executable, "-c", code, str(root / "raw" / "plug" / "items.jsonl")],
                          cwd=root, env=env, capture_output=True, text=True, timeout=120)  # fmt: skip
    assert done.returncode == 0, done.stderr
    found = json.loads(done.stdout)
    assert found["names"][:5] == ["generation", "validation", "judge", "review", "release"]
    assert found["names"][-1] == "type_counts"
    assert found["origin"] == "entry point type_counts = ambiplug.stages:TYPE_COUNTS (from ambiplug)"
    assert found["available"] == ["items", "type_counts"]
    assert {"ambiguity_type": "amount", "items": 9} in found["counts"]
    assert found["fingerprint"] == {"generation": "1", "type_counts": "1"}


def test_a_broken_plugin_is_one_line_naming_its_entry_point(plugin, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    root, env, _ = plugin
    info = tmp_path / "brokenplug-1.0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: brokenplug\nVersion: 1.0\n")
    (info / "entry_points.txt").write_text("[ambiforge.rules]\nbroken = brokenplug_rules\n")
    env = {**env, "PYTHONPATH": os.pathsep.join([env["PYTHONPATH"], str(tmp_path)])}
    built = ambiforge("build", "--provider", "offline", "--pairs", "4", "--run-id", "broken", cwd=root, env=env)
    assert built.returncode == 2, built.stderr
    assert "Traceback" not in built.stderr
    assert built.stderr.strip().splitlines()[-1] == (
        "ambiforge: error: rule family entry point broken = brokenplug_rules (from brokenplug) failed to load: "
        "ModuleNotFoundError: No module named 'brokenplug_rules'"
    )
