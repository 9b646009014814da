"""One Config -> options path, the stage contract and registry, and the build fingerprint."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from ambiforge.config.build import BuildOptions, build_options
from ambiforge.config.file import load_config
from ambiforge.config.validation import ValidationConfig
from ambiforge.engine.fingerprint import fingerprint, fingerprint_material
from ambiforge.engine.state import check_options
from ambiforge.errors import ConfigError
from ambiforge.stages import FunctionStage, Stage, StageContext, get, names, register, unregister, versions


def write_config(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "ambiforge.toml"
    path.write_text(text)
    return path


def test_options_nest_every_section_of_the_config(tmp_path: Path) -> None:
    cfg = load_config(
        write_config(
            tmp_path,
            "[sampler]\nfood_groups = [1, 2]\nper_group = [2, 3]\n"
            "[validation]\nmax_plan_steps = 4\ntype_mix_tolerance = 0.2\n"
            "[build]\npairs = 7\nbatch_size = 3\n",
        )
    )
    options = build_options(cfg, seed=9)
    assert options.sampler.food_groups == (1, 2) and options.sampler.per_group == (2, 3)
    assert options.sampler.food_groups == (1, 2)
    assert options.validation.max_plan_steps == 4 and options.validation.type_mix_tolerance == 0.2
    assert (options.pairs, options.batch_size, options.seed) == (7, 3, 9)
    # the options survive the trip through JSON (Prefect deployment parameters) unchanged
    assert BuildOptions.model_validate(json.loads(options.model_dump_json())) == options


def test_the_validation_stage_uses_the_thresholds_of_the_options(catalog) -> None:  # type: ignore[no-untyped-def]
    from ambiforge.generation.offline import OfflineGenerator
    from ambiforge.models.outcome import Outcome

    item, attempt = OfflineGenerator(catalog, 1, "r").generate(0, "preferences")
    outcomes = [Outcome(0, "preferences", item, attempt)]
    default = get("validation").run(outcomes, StageContext(BuildOptions(pairs=1)))
    strict_options = BuildOptions(pairs=1, validation={"max_plan_steps": 1})
    strict = get("validation").run(outcomes, StageContext(strict_options))
    assert default[0].stage is None
    assert strict[0].stage == "validate" and "allowed 1 to 1" in str(strict[0].reason)


def test_ambiguity_folders_resolve_against_the_config_file(tmp_path: Path) -> None:
    write_config(tmp_path, '[ambiguity]\nfolders = ["nowhere"]\n')
    with pytest.raises(ConfigError, match=r"ambiforge.toml: ambiguity.folders.0: nowhere is not a folder"):
        load_config(tmp_path / "ambiforge.toml")


def test_bad_threshold_names_file_and_key(tmp_path: Path) -> None:
    path = write_config(tmp_path, "[validation]\nmax_plan_steps = 0\n")
    with pytest.raises(ConfigError, match=r"ambiforge.toml: validation.max_plan_steps: "):
        load_config(path)


def test_builtin_stages_follow_the_contract() -> None:
    assert {"generation", "validation", "judge", "review", "release"} <= set(names())
    for name in ("generation", "validation", "judge", "review", "release"):
        stage = get(name)
        assert isinstance(stage, Stage) and stage.version and stage.inputs and stage.outputs
    with pytest.raises(ConfigError, match="unknown stage 'summarise'"):  # 'judge' was the example before it existed
        get("summarise")


def test_a_registered_stage_runs_over_records() -> None:
    upper = FunctionStage("upper_case", "1", ("texts",), ("texts",), lambda rs, ctx: [r.upper() for r in rs])
    register(upper)
    try:
        assert get("upper_case").run(["a", "b"], StageContext()) == ["A", "B"]
        assert versions(("upper_case",)) == {"upper_case": "1"}
        with pytest.raises(ConfigError, match="already registered"):
            register(FunctionStage("upper_case", "2", ("texts",), ("texts",), lambda rs, ctx: list(rs)))
    finally:
        unregister("upper_case")
    assert "upper_case" not in names()


def test_fingerprint_follows_output_options_and_stage_versions(tmp_path: Path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    from ambiforge.config.llm import LLMConfig

    base = BuildOptions(run_id="r", pairs=10, seed=1, llm=LLMConfig())
    same = base.model_copy(
        update={"out": "elsewhere", "batch_size": 3, "task_runner": "dask", "llm": LLMConfig(concurrency=2)}
    )
    assert fingerprint(same) == fingerprint(base)  # where and how fast a run goes does not change its output
    assert fingerprint(base.model_copy(update={"validation": ValidationConfig(max_plan_steps=2)})) != fingerprint(base)
    steps = dict(base.llm.steps)  # type: ignore[union-attr]
    steps["intent"] = steps["intent"].model_copy(update={"model": "other"})
    assert fingerprint(base.model_copy(update={"llm": LLMConfig(steps=steps)})) != fingerprint(base)

    check_options(tmp_path, base)
    check_options(tmp_path, same)
    recorded = json.loads((tmp_path / "options.json").read_text())
    assert recorded["fingerprint"] == fingerprint(base) and recorded["stages"]["generation"] == "1"
    with pytest.raises(ConfigError, match=r"run exists with different validation"):
        check_options(tmp_path, base.model_copy(update={"validation": ValidationConfig(max_plan_steps=2)}))
    bumped = FunctionStage("generation", "2", ("pair_specs",), ("outcomes",), lambda rs, ctx: list(rs))
    import ambiforge.stages.registry as registry

    builtin = registry.get
    monkeypatch.setattr(registry, "get", lambda name: bumped if name == "generation" else builtin(name))
    with pytest.raises(ConfigError, match=r"run exists with different stage generation"):
        check_options(tmp_path, base)


def test_a_run_folder_from_before_fingerprints_is_still_guarded(tmp_path: Path) -> None:
    old = {"provider": "offline", "pairs": 10, "seed": 1, "catalog": "", "llm_steps": None}
    (tmp_path / "options.json").write_text(json.dumps(old))
    check_options(tmp_path, BuildOptions(pairs=10, seed=1, batch_size=5))
    with pytest.raises(ConfigError, match=r"run exists with different pairs"):
        check_options(tmp_path, BuildOptions(pairs=11, seed=1))


def test_the_catalog_content_goes_into_the_fingerprint(tmp_path: Path) -> None:
    from ambiforge.catalog import cached_catalog, default_catalog_path

    one, two = tmp_path / "one" / "kitchen.yaml", tmp_path / "two" / "kitchen.yaml"
    for path, extra in ((one, ""), (two, "# edited\n")):
        path.parent.mkdir()
        path.write_text(default_catalog_path().read_text() + extra)
    options = BuildOptions(pairs=5, catalog=str(one))
    assert cached_catalog(str(one)).sha256 != cached_catalog(str(two)).sha256
    assert fingerprint(options) != fingerprint(options.model_copy(update={"catalog": str(two)}))
    assert fingerprint_material(options)["options"]["catalog_sha256"] == cached_catalog(str(one)).sha256
