"""Every public function of the API refuses a wrong type, None where a value is needed, or a string where
a list is, with a TypeError (or ConfigError) naming the parameter, before any work: never an
AttributeError from deep inside, nor a string read as a list of its characters (``runs='env'``)."""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

import ambiforge
from ambiforge.errors import ConfigError


@pytest.fixture(autouse=True)
def _here(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """An empty configuration in an empty folder: nothing of the repository is read or written."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("AMBIFORGE_CONFIG", "")
    monkeypatch.delenv("PREFECT_API_URL", raising=False)
    (tmp_path / "ambiforge.toml").write_text("")


def _cfg() -> Any:
    return ambiforge.load_config("ambiforge.toml")


def _build_opts() -> Any:
    return ambiforge.BuildOptions(pairs=3, run_id="r")


def _eval_opts() -> Any:
    Path("items.jsonl").write_text("")
    return ambiforge.eval_options(_cfg(), data="items.jsonl", model="m")


def _paths() -> Any:
    return ambiforge.ReviewPaths(raw=Path("raw"), annotation=Path("annotation"))


def _enter(asked: Any) -> None:
    with ambiforge.orchestration(asked):
        pass


EVAL = {"data": "items.jsonl", "model": "m"}

#: (what is called, the parameter the message must name, the error type)
CASES: list[tuple[str, Callable[[], Any], str, type[Exception]]] = [
    ("load_config(123)", lambda: ambiforge.load_config(123), "path", TypeError),
    ("load_config([...])", lambda: ambiforge.load_config(["a.toml"]), "path", TypeError),
    ("import_ambik(None)", lambda: ambiforge.import_ambik(None, "o.jsonl"), "csv_path", TypeError),
    ("import_ambik(out=None)", lambda: ambiforge.import_ambik("a.csv", None), "out", TypeError),
    (
        "import_ambik(raw_cells='yes')",
        lambda: ambiforge.import_ambik("a.csv", "o.jsonl", raw_cells="yes"),
        "raw_cells",
        TypeError,
    ),
    ("import_ambik(config={})", lambda: ambiforge.import_ambik("a.csv", "o.jsonl", config={}), "config", TypeError),
    ("export_ambik(None)", lambda: ambiforge.export_ambik(None, "o.csv"), "items_path", TypeError),
    ("export_ambik(out=5)", lambda: ambiforge.export_ambik("i.jsonl", 5), "out", TypeError),
    (
        "export_ambik(config=str)",
        lambda: ambiforge.export_ambik("i.jsonl", "o.csv", config="a.toml"),
        "config",
        TypeError,
    ),
    ("build_options(provider=5)", lambda: ambiforge.build_options(provider=5), "provider", TypeError),
    ("build_options(provider='')", lambda: ambiforge.build_options(provider=""), "provider", ConfigError),
    ("build_options(pairs='10')", lambda: ambiforge.build_options(pairs="10"), "pairs", TypeError),
    ("build_options(pairs=True)", lambda: ambiforge.build_options(pairs=True), "pairs", TypeError),
    ("build_options(seed=1.5)", lambda: ambiforge.build_options(seed=1.5), "seed", TypeError),
    ("build_options(max_cost='1')", lambda: ambiforge.build_options(max_cost="1"), "max_cost", TypeError),
    ("build_options(type_mix=str)", lambda: ambiforge.build_options(type_mix="safety=1"), "type_mix", TypeError),
    (
        "build_options(type_mix share str)",
        lambda: ambiforge.build_options(type_mix={"safety": "1"}),
        "type_mix",
        TypeError,
    ),
    ("build_options(step_models=list)", lambda: ambiforge.build_options(step_models=["a=b"]), "step_models", TypeError),
    ("build_options(out=3)", lambda: ambiforge.build_options(out=3), "out", TypeError),
    ("build_options(catalog=None-ish)", lambda: ambiforge.build_options(catalog=b"x.yaml"), "catalog", TypeError),
    ("build_options(config={})", lambda: ambiforge.build_options({}), "config", TypeError),
    ("build_options(on_note='print')", lambda: ambiforge.build_options(on_note="print"), "on_note", TypeError),
    ("build(None)", lambda: ambiforge.build(None), "options", TypeError),
    ("estimate(None)", lambda: ambiforge.estimate(None), "options", TypeError),
    ("estimate('opts')", lambda: ambiforge.estimate("opts"), "options", TypeError),
    ("estimate({pairs: 'lots'})", lambda: ambiforge.estimate({"pairs": "lots"}), "pairs", ConfigError),
    ("build('opts')", lambda: ambiforge.build("opts"), "options", TypeError),
    ("build({pairs: 'lots'})", lambda: ambiforge.build({"pairs": "lots"}), "pairs", ConfigError),
    ("build(prefect='yes')", lambda: ambiforge.build(_build_opts(), prefect="yes"), "prefect", TypeError),
    (
        "build(annotation_root=None)",
        lambda: ambiforge.build(_build_opts(), annotation_root=None),
        "annotation_root",
        TypeError,
    ),
    ("build(reference=str)", lambda: ambiforge.build(_build_opts(), reference="ref.csv"), "reference", TypeError),
    ("build(on_start=1)", lambda: ambiforge.build(_build_opts(), on_start=1), "on_start", TypeError),
    ("build(orchestration={})", lambda: ambiforge.build(_build_opts(), orchestration={}), "orchestration", TypeError),
    ("build(config=str)", lambda: ambiforge.build(_build_opts(), config="a.toml"), "config", TypeError),
    ("validate(None)", lambda: ambiforge.validate(None), "path", TypeError),
    ("validate(5)", lambda: ambiforge.validate(5), "path", TypeError),
    ("validate('')", lambda: ambiforge.validate(""), "path", ConfigError),
    ("validate(mix='no')", lambda: ambiforge.validate("i.jsonl", mix="no"), "mix", TypeError),
    ("validate(out=[])", lambda: ambiforge.validate("i.jsonl", out=[]), "out", TypeError),
    ("validate(config={})", lambda: ambiforge.validate("i.jsonl", config={}), "config", TypeError),
    ("validate(on_count=3)", lambda: ambiforge.validate("i.jsonl", on_count=3), "on_count", TypeError),
    ("release_options(None)", lambda: ambiforge.release_options(None, "1.0.0", ["r"]), "config", TypeError),
    ("release_options(version=None)", lambda: ambiforge.release_options(_cfg(), None, ["r"]), "version", TypeError),
    ("release_options(run_ids='env')", lambda: ambiforge.release_options(_cfg(), "1.0.0", "env"), "run_ids", TypeError),
    (
        "release_options(run_ids=[r, 3])",
        lambda: ambiforge.release_options(_cfg(), "1.0.0", ["r", 3]),
        "run_ids",
        TypeError,
    ),
    (
        "release_options(calibration_size='10')",
        lambda: ambiforge.release_options(_cfg(), "1.0.0", ["r"], calibration_size="10"),
        "calibration_size",
        TypeError,
    ),
    (
        "release_options(mix_tolerance='0.1')",
        lambda: ambiforge.release_options(_cfg(), "1.0.0", ["r"], mix_tolerance="0.1"),
        "mix_tolerance",
        TypeError,
    ),
    (
        "release_options(allow_unreviewed=1)",
        lambda: ambiforge.release_options(_cfg(), "1.0.0", ["r"], allow_unreviewed=1),
        "allow_unreviewed",
        TypeError,
    ),
    ("release(None)", lambda: ambiforge.release(None), "opts", TypeError),
    ("release({...})", lambda: ambiforge.release({"version": "1.0.0"}), "opts", TypeError),
    ("verify(None)", lambda: ambiforge.verify(None), "folder", TypeError),
    ("verify(manifest_sha256=123)", lambda: ambiforge.verify("curated/1.0.0", 123), "manifest_sha256", TypeError),
    ("diff(None)", lambda: ambiforge.diff(None, "1.0.0"), "old", TypeError),
    ("diff(new=2)", lambda: ambiforge.diff("1.0.0", 2), "new", TypeError),
    ("diff(curated=None)", lambda: ambiforge.diff("1.0.0", "1.1.0", curated=None), "curated", TypeError),
    ("eval_options(data=None)", lambda: ambiforge.eval_options(data=None, model="m"), "data", TypeError),
    ("eval_options(model=None)", lambda: ambiforge.eval_options(data="i.jsonl", model=None), "model", TypeError),
    ("eval_options(methods='knowno')", lambda: ambiforge.eval_options(**EVAL, methods="knowno"), "methods", TypeError),
    ("eval_options(methods=[])", lambda: ambiforge.eval_options(**EVAL, methods=[]), "method", ConfigError),
    ("eval_options(epsilon='0.2')", lambda: ambiforge.eval_options(**EVAL, epsilon="0.2"), "epsilon", TypeError),
    ("eval_options(limit='5')", lambda: ambiforge.eval_options(**EVAL, limit="5"), "limit", TypeError),
    ("eval_options(rpm='300')", lambda: ambiforge.eval_options(**EVAL, rpm="300"), "rpm", TypeError),
    ("eval_options(rpm=-1)", lambda: ambiforge.eval_options(**EVAL, rpm=-1), "rpm", ConfigError),
    ("eval_options(concurrency=0)", lambda: ambiforge.eval_options(**EVAL, concurrency=0), "concurrency", ConfigError),
    ("eval_options(options=list)", lambda: ambiforge.eval_options(**EVAL, options=["samples=3"]), "options", TypeError),
    (
        "eval_options(per_method=str)",
        lambda: ambiforge.eval_options(**EVAL, per_method={"lofreecp": "x"}),
        "per_method",
        TypeError,
    ),
    ("eval_options(with_plan='yes')", lambda: ambiforge.eval_options(**EVAL, with_plan="yes"), "with_plan", TypeError),
    ("eval_options(config=str)", lambda: ambiforge.eval_options("a.toml", **EVAL), "config", TypeError),
    ("evaluate(None)", lambda: ambiforge.evaluate(None), "opts", TypeError),
    ("evaluate({...})", lambda: ambiforge.evaluate({"data": "i.jsonl", "model": "m"}), "opts", TypeError),
    ("evaluate(prefect=None)", lambda: ambiforge.evaluate(_eval_opts(), prefect=None), "prefect", TypeError),
    ("rescore_eval(None)", lambda: ambiforge.rescore_eval(None), "results", TypeError),
    ("rescore_eval(metrics=None)", lambda: ambiforge.rescore_eval("eval/x", None), "metrics", TypeError),
    ("review_push(None)", lambda: ambiforge.review_push(None, _paths()), "run_id", TypeError),
    ("review_push(paths=None)", lambda: ambiforge.review_push("r", None), "paths", TypeError),
    ("review_push(paths={})", lambda: ambiforge.review_push("r", {"raw": "raw"}), "paths", TypeError),
    ("review_push(project=5)", lambda: ambiforge.review_push("r", _paths(), 5), "project", TypeError),
    ("review_pull(None)", lambda: ambiforge.review_pull(None, _paths()), "run_id", TypeError),
    ("review_pull(paths=str)", lambda: ambiforge.review_pull("r", "annotation"), "paths", TypeError),
    ("check_schedule(None)", lambda: ambiforge.check_schedule(None), "cron", TypeError),
    ("check_schedule(5)", lambda: ambiforge.check_schedule(5), "cron", TypeError),
    ("check_deployment_name(None)", lambda: ambiforge.check_deployment_name(None), "name", TypeError),
    ("serve(options=None)", lambda: ambiforge.serve("0 3 * * *", None), "options", TypeError),
    ("serve(options={})", lambda: ambiforge.serve("0 3 * * *", {"pairs": 3}), "options", TypeError),
    ("orchestration('yes')", lambda: _enter("yes"), "asked", TypeError),
]


@pytest.mark.parametrize(("call", "param", "error"), [(c, p, e) for _, c, p, e in CASES], ids=[n for n, *_ in CASES])
def test_a_bad_argument_is_refused_naming_the_parameter(
    call: Callable[[], Any], param: str, error: type[Exception], tmp_path: Path
) -> None:
    with pytest.raises(error) as caught:
        call()
    assert type(caught.value) is error or issubclass(type(caught.value), error)
    assert re.search(rf"(^|[^a-z_]){param}([^a-z_]|$)", str(caught.value)), str(caught.value)
    assert sorted(p.name for p in tmp_path.iterdir()) in (["ambiforge.toml"], ["ambiforge.toml", "items.jsonl"])


def test_there_are_enough_cases_and_every_function_is_covered() -> None:
    functions = {name for name in ambiforge.api.__all__ if name != "Orchestration"}
    covered = {name.split("(")[0] for name, *_ in CASES}
    assert len(CASES) >= 40
    assert functions <= covered, sorted(functions - covered)
