"""The public Python API: a small, documented surface that ``import ambiforge`` exposes without loading it,
and a build from Python that writes the CLI's bytes."""

from __future__ import annotations

import inspect
import json
import subprocess
import sys
from pathlib import Path

import pytest

import ambiforge
from ambiforge import api
from ambiforge.errors import ConfigError
from tests.conftest import REPO


def test_exported_members() -> None:
    """As httpx's: every function of the API is exported and documented, with the option, result and error
    types; nothing else of the API is public, and each exported name resolves (type checkers see the same)."""
    import ambiforge.results

    types = {"BuildOptions", "Config", "EvalOptions", "ReleaseOptions", "ReviewPaths"}
    results = {n for n in vars(ambiforge.results) if n.endswith("Result")}
    errors = {"AmbiforgeError", "ConfigError", "InputError"}
    assert set(ambiforge.__all__) == set(api.__all__) | {"__version__"} | types | results | errors
    for name in ambiforge.__all__:
        member = getattr(ambiforge, name)
        if name == "__version__":
            continue
        assert not name.startswith("_"), name
        if name in api.__all__:
            assert member is getattr(api, name), name
        assert inspect.getdoc(member), f"{name} has no docstring"
    public = {n for n, v in vars(api).items() if not n.startswith("_") and getattr(v, "__module__", "") == api.__name__}
    assert public == set(api.__all__), sorted(public ^ set(api.__all__))
    assert ambiforge.BuildOptions.__name__ == "BuildOptions"
    with pytest.raises(AttributeError, match="no attribute 'Nothing'"):
        ambiforge.Nothing  # noqa: B018


def test_results_are_frozen_records_with_their_dict() -> None:
    import dataclasses

    summary = {
        "run_id": "r",
        "pairs_requested": 3,
        "items_written": 2,
        "rejected_count": 1,
        "per_type": {"safety": 2},
        "seconds": {"total": 1.5},
        "files": {"items_jsonl": "raw/r/items.jsonl", "items_parquet": "raw/r/items.parquet"},
    }
    result = ambiforge.BuildResult.from_summary(summary)
    assert (result.folder, result.items_written, result.seconds) == (Path("raw/r"), 2, 1.5)
    with pytest.raises(dataclasses.FrozenInstanceError):
        result.items_written = 5  # type: ignore[misc]
    copy = result.to_dict()
    copy["items_written"] = 99
    assert result.to_dict() == summary  # the caller's copy is its own


def test_the_commands_import_by_name_even_beside_their_subpackages() -> None:
    """The release package is ``ambiforge.releases``: importing its modules never hides the ``release`` function."""
    import ambiforge.releases.writer  # noqa: F401 - binds the subpackage on ``ambiforge``, as any import does
    from ambiforge import build, evaluate, release, validate

    assert (build, evaluate, release, validate) == (api.build, api.evaluate, api.release, api.validate)
    from ambiforge.releases import writer

    assert writer.__name__ == "ambiforge.releases.writer"


def test_importing_ambiforge_loads_nothing_heavy() -> None:
    code = (
        "import sys, ambiforge; from ambiforge import build, release; "
        "print(sorted({m.split('.')[0] for m in sys.modules}))"
    )
    proc = subprocess.run([sys.executable, "-c", code], cwd=REPO, capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    loaded = set(json.loads(proc.stdout.replace("'", '"')))
    heavy = {"prefect", "flows", "great_expectations", "openai", "mistralai", "dask", "pandas", "matplotlib"}
    assert not heavy & loaded, sorted(heavy & loaded)


def _run_files(run: Path) -> dict[str, bytes]:
    names = ("items.jsonl", "items.parquet", "rejected.jsonl", "validation/report.json")
    return {name: (run / name).read_bytes() for name in names}


@pytest.mark.slow
def test_a_seeded_build_from_python_writes_the_cli_bytes(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from ambiforge.cli.main import main
    from ambiforge.config.build import BuildOptions

    monkeypatch.delenv("PREFECT_API_URL", raising=False)
    monkeypatch.setenv("AMBIFORGE_CONFIG", "")
    for side in ("cli", "python"):
        (tmp_path / side).mkdir()
        (tmp_path / side / "ambiforge.toml").write_text("")  # the defaults, as BuildOptions has them
    monkeypatch.chdir(tmp_path / "cli")  # same relative paths on both sides (reports name their files)
    argv = ["build", "--provider", "offline", "--pairs", "40", "--seed", "5", "--run-id", "same", "--out", "raw"]
    assert main([*argv, "--config", "ambiforge.toml"]) == 0
    monkeypatch.chdir(tmp_path / "python")
    summary = ambiforge.build(BuildOptions(provider="offline", pairs=40, seed=5, run_id="same", out="raw"))
    assert summary.items_written > 0 and summary.folder == Path("raw/same")
    cli, python = _run_files(tmp_path / "cli" / "raw" / "same"), _run_files(tmp_path / "python" / "raw" / "same")
    assert [name for name in cli if cli[name] != python[name]] == []
    again = ambiforge.build(BuildOptions(provider="offline", pairs=40, seed=5, run_id="same", out="raw"))
    assert again.items_written == summary.items_written  # a finished run: its summary, nothing rewritten
    assert _run_files(tmp_path / "python" / "raw" / "same") == python


def test_build_from_python_runs_the_cli_preflight(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """``ambiforge.build(BuildOptions(...))`` refuses what ``ambiforge build`` refuses, with the same line,
    before any file is written."""
    from ambiforge import BuildOptions
    from ambiforge.cli.main import main

    monkeypatch.delenv("PREFECT_API_URL", raising=False)
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    monkeypatch.setenv("AMBIFORGE_CONFIG", "")
    monkeypatch.chdir(tmp_path)
    (tmp_path / "ambiforge.toml").write_text("")
    (tmp_path / "afile").write_text("x")
    cases = [
        (["--provider", "nosuch"], {"provider": "nosuch"}),
        (["--provider", "openai"], {"provider": "openai"}),
        (["--catalog", "missing.yaml"], {"catalog": "missing.yaml"}),
        (["--task-runner", "fork"], {"task_runner": "fork"}),
        (["--out", "afile"], {"out": "afile"}),
        (["--reference", "afile"], {"reference": "afile"}),
    ]
    for argv, fields in cases:
        assert main(["build", "--pairs", "3", "--run-id", "r", *argv]) == 2, argv
        cli = capsys.readouterr().err.strip().splitlines()[-1].removeprefix("ambiforge: error: ")
        with pytest.raises(ambiforge.AmbiforgeError) as caught:
            ambiforge.build(BuildOptions(pairs=3, run_id="r", **fields))
        assert str(caught.value) == cli, argv
    assert sorted(p.name for p in tmp_path.iterdir()) == ["afile", "ambiforge.toml"]


def test_a_missing_orchestrator_is_one_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from ambiforge.cli.main import main
    from ambiforge.engine import orchestrator
    from ambiforge.registry import Registry

    monkeypatch.setattr(orchestrator, "ORCHESTRATORS", Registry("orchestrator", "ambiforge.tests_no_orchestrator"))
    monkeypatch.delenv("PREFECT_API_URL", raising=False)
    with pytest.raises(ConfigError, match="the prefect orchestrator is not installed"):
        api.check_schedule("0 3 * * *")
    config = tmp_path / "ambiforge.toml"
    config.write_text(f'[paths]\nraw = "{tmp_path}/raw"\ncurated = "{tmp_path}/curated"\n')
    assert main(["release", "--version", "1.0.0", "--from", "r", "--prefect", "--config", str(config)]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert err[0] == "releasing 1.0.0 from r" and len(err) == 2
    assert err[1].startswith("ambiforge: error: the prefect orchestrator is not installed (no entry point 'prefect'")
    assert not (tmp_path / "curated").exists()


def test_without_prefect_the_orchestrator_is_not_wanted(monkeypatch: pytest.MonkeyPatch) -> None:
    from ambiforge.engine.orchestrator import wanted

    monkeypatch.delenv("PREFECT_API_URL", raising=False)
    assert wanted(True)
    monkeypatch.setenv("PREFECT_API_URL", "http://127.0.0.1:9/api")
    assert wanted(False)


def test_the_prefect_orchestrator_is_registered() -> None:
    from ambiforge.engine.orchestrator import ORCHESTRATORS, load

    assert "prefect" in ORCHESTRATORS
    assert ORCHESTRATORS.origin("prefect") == "entry point prefect = flows.orchestrator:orchestrator (from ambiforge)"
    prefect = load()
    assert prefect.check_schedule("0 3 * * *") == "0 3 * * *"
    with pytest.raises(ConfigError, match="--cron: not a valid cron expression"):
        prefect.check_schedule("every morning")


def test_eval_rpm_and_concurrency_reach_the_client(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """``--rpm``/``--concurrency`` (``eval_options(rpm=, concurrency=)``) replace ``[llm]``'s limits in the
    limiter the eval's client calls through; the configuration's values apply when they are not given."""
    from ambiforge.evaluation.command import make_model

    monkeypatch.chdir(tmp_path)
    toml = "[llm]\nrpm = 120\nconcurrency = 2\n[eval.methods.lofreecp]\nsamples = 9\n"
    (tmp_path / "ambiforge.toml").write_text(toml)
    (tmp_path / "items.jsonl").write_text("")
    cfg = ambiforge.load_config("ambiforge.toml")
    configured = make_model(ambiforge.eval_options(cfg, data="items.jsonl", model="m"), tmp_path / "a")
    assert (configured.client.limiter.rpm, configured.client.limiter.concurrency) == (120, 2)  # type: ignore[attr-defined]
    opts = ambiforge.eval_options(cfg, data="items.jsonl", model="m", rpm=0, concurrency=5)
    given = make_model(opts, tmp_path / "b")
    assert (given.client.limiter.rpm, given.client.limiter.concurrency) == (0, 5)  # type: ignore[attr-defined]
    assert given.client.limiter.interval == 0.0  # type: ignore[attr-defined]
    assert opts.settings["lofreecp"].samples == 9  # [eval.methods] applied by the API, not the CLI
    one = ambiforge.eval_options(cfg, data="items.jsonl", model="m", per_method={"lofreecp": {"samples": 3}})
    assert one.settings["lofreecp"].samples == 3
