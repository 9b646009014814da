"""Stage inputs and outputs are checked when a pipeline is assembled, before any stage runs."""

from __future__ import annotations

import pytest

from ambiforge.errors import ConfigError
from ambiforge.stages import FunctionStage, check_pipeline, register, unregister


def test_the_build_pipelines_are_complete() -> None:
    available = check_pipeline(("generation", "validation", "judge"), ("pair_specs",))
    assert available == ("pair_specs", "outcomes")
    assert check_pipeline(("review",), ("run_ids",)) == ("run_ids", "push_reports")
    assert check_pipeline(("release",), ("release_options",)) == ("release_options", "release_folders")


def test_a_stage_without_its_input_is_named_with_what_is_there() -> None:
    with pytest.raises(ConfigError, match=r"^stage 'validation': missing input outcomes \(available: none\)$"):
        check_pipeline(("validation",), ())
    with pytest.raises(
        ConfigError, match=r"^stage 'review': missing input run_ids \(available: pair_specs, outcomes\)$"
    ):
        check_pipeline(("generation", "review"), ("pair_specs",))
    with pytest.raises(ConfigError, match=r"unknown stage 'summarise' \(known: generation, validation, judge"):
        check_pipeline(("generation", "summarise"), ("pair_specs",))


def test_a_registered_stage_joins_where_its_inputs_are() -> None:
    summary = FunctionStage("summary", "1", ("outcomes",), ("summaries",), lambda rs, ctx: [len(rs)])
    register(summary)
    try:
        assert check_pipeline(("generation", "summary"), ("pair_specs",))[-1] == "summaries"
        with pytest.raises(ConfigError, match="stage 'summary': missing input outcomes"):
            check_pipeline(("summary", "generation"), ("pair_specs",))
    finally:
        unregister("summary")


def test_a_build_checks_its_stages_before_any_work(tmp_path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """The engine assembles the build's stages through check_pipeline: a built-in stage whose declared
    input nothing provides stops the build with one line, before generation starts."""
    from ambiforge.config.build import BuildOptions
    from ambiforge.engine import pipeline
    from ambiforge.errors import ConfigError
    from ambiforge.stages import FunctionStage, assembly

    broken = FunctionStage("validation", "1", ("checked_outcomes",), ("outcomes",), lambda r, c: list(r))
    real = assembly.get
    monkeypatch.setattr(assembly, "get", lambda name: broken if name == "validation" else real(name))
    started: list[str] = []
    stages = pipeline.Stages(
        generate=lambda options: started.append("generate"),
        validate=lambda options, seconds: {},
        publish=lambda *a: None,
        review_push=lambda *a: {},
    )
    options = BuildOptions(pairs=1, out=str(tmp_path), run_id="r")
    with pytest.raises(ConfigError, match="stage 'validation': missing input checked_outcomes"):
        pipeline.build(options, str(tmp_path / "annotation"), stages)
    assert started == []
