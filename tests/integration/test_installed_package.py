"""An installed ambiforge needs no checkout: the wheel carries prompts/ and schemas/ as package data.

The wheel is built from this source tree and installed (not editable) into a fresh virtual environment.
To keep the test fast its dependencies are not downloaded again: a ``.pth`` line puts the development
environment's site-packages on ``sys.path``. Lines of a ``.pth`` file only add a path; ``.pth`` files
inside that path are not run, so the development environment's editable ambiforge (an import hook
installed by a ``.pth`` file) stays out, and the test asserts that ``ambiforge`` is imported from the new
environment. Commands run from an empty directory, without PYTHONPATH.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import sysconfig
from pathlib import Path

import pytest

from ambiforge.testing.kitchen_responder import KitchenResponder
from ambiforge.testing.llm_server import ScriptedLLMServer
from tests.conftest import REPO
from tests.integration import processes

pytestmark = [pytest.mark.integration, pytest.mark.slow]
KEY = "sk-test-installed-0123456789"


def run(cmd: list[str], cwd: Path, env: dict[str, str], timeout: float = 300) -> subprocess.CompletedProcess[str]:
    """In its own process group, killed whole afterwards (a build's Prefect API server with it)."""
    return processes.run(cmd, timeout=timeout, cwd=cwd, env=env)


@pytest.fixture(scope="module")
def installed(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The ``bin/`` of a fresh venv with the wheel of this checkout installed."""
    root = tmp_path_factory.mktemp("installed")
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    wheels = root / "wheels"
    built = run([sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", str(REPO), "-w", str(wheels)], root, env)
    assert built.returncode == 0, built.stderr
    (wheel,) = wheels.glob("ambiforge-*.whl")
    venv = root / "venv"
    made = run([sys.executable, "-m", "venv", str(venv)], root, env)
    assert made.returncode == 0, made.stderr
    site = Path(
        run(
            [str(venv / "bin" / "python"), "-c", "import site; print(site.getsitepackages()[0])"], root, env
        ).stdout.strip()
    )
    (site / "zz_dependencies.pth").write_text(sysconfig.get_paths()["purelib"] + "\n")
    pip = run(
        [str(venv / "bin" / "python"), "-m", "pip", "install", "-q", "--no-deps", "--no-index", str(wheel)], root, env
    )
    assert pip.returncode == 0, pip.stderr
    return venv / "bin"


def clean_env(tmp_path: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "AMBIFORGE_CONFIG")}
    return env | {"PREFECT_HOME": str(tmp_path / "prefect-home")}


def test_the_installed_package_is_the_wheel(installed: Path, tmp_path: Path) -> None:
    probe = "import ambiforge, ambiforge.resources as r; print(ambiforge.__file__); print(r.resource_dir('prompts'))"
    out = run([str(installed / "python"), "-c", probe], tmp_path, clean_env(tmp_path))
    assert out.returncode == 0, out.stderr
    module, prompts = out.stdout.split()
    venv = installed.parent.resolve()
    assert Path(module).resolve().is_relative_to(venv) and Path(prompts).resolve().is_relative_to(venv)
    assert (Path(prompts) / "unambiguous_task.yaml").is_file()


def test_schema_check_passes_from_an_empty_directory(installed: Path, tmp_path: Path) -> None:
    out = run([str(installed / "ambiforge"), "schema", "--check"], tmp_path, clean_env(tmp_path))
    assert out.returncode == 0, out.stderr


def test_llm_build_from_an_empty_directory(installed: Path, tmp_path: Path) -> None:
    """With ``--model`` (every step) and ``--step-model`` (one step) for a local OpenAI-compatible server."""
    work = tmp_path / "empty"
    work.mkdir()
    with ScriptedLLMServer(KitchenResponder(), api_key=KEY) as server:
        env = clean_env(tmp_path) | {"OPENAI_API_KEY": KEY, "OPENAI_BASE_URL": server.openai_url}
        cmd = [str(installed / "ambiforge"), "build", "--provider", "openai", "--pairs", "6", "--run-id", "inst"]
        cmd += ["--model", "local-small", "--step-model", "intent=local-intent"]
        proc = run(cmd, work, env, timeout=600)
        served = {r.model for r in server.requests}
    assert proc.returncode == 0, proc.stderr
    folder = work / "raw" / "inst"
    items = (folder / "items.jsonl").read_text().splitlines()
    # the scripted responder answers only where an offline template fits the prompt's kitchen
    assert len(items) >= 3
    rejected = [json.loads(line) for line in (folder / "rejected.jsonl").read_text().splitlines()]
    assert not any("prompt template not found" in str(r["reason"]) for r in rejected)
    assert served == {"local-small", "local-intent"}
    calls = [json.loads(line) for line in (folder / "calls.jsonl").read_text().splitlines()]
    assert {c["model"] for c in calls if c["step"] == "intent"} == {"local-intent"}
    assert {c["model"] for c in calls if c["step"] != "intent"} == {"local-small"}
