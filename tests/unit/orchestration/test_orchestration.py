"""Orchestration: deployments with schedules, resumable generation, task runners (threads and Dask)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from ambiforge.config.build import BuildOptions
from ambiforge.engine.checkpoints import outcome_from_record, outcome_to_record
from ambiforge.engine.report import summary_markdown, top_reasons, worst_items_table
from ambiforge.engine.state import check_options, is_done, mark, read_state
from ambiforge.errors import ConfigError
from ambiforge.models.outcome import Outcome


def test_deployment_built_by_serve_has_the_cron_schedule() -> None:
    from flows.deployments import build_deployment

    deployment = build_deployment("0 3 * * *", BuildOptions(pairs=25, seed=7, run_id="ignored"))
    assert [s.schedule.cron for s in deployment.schedules] == ["0 3 * * *"]
    params = deployment.parameters["options"]
    assert params["pairs"] == 25 and params["seed"] == 7
    assert params["run_id"] == ""  # each scheduled run makes its own id
    assert deployment.name == "scheduled-build"


def test_serve_rejects_a_bad_cron(capsys: pytest.CaptureFixture[str]) -> None:
    from ambiforge.cli.main import main

    assert main(["serve", "--cron", "every morning"]) == 2
    err = capsys.readouterr().err
    assert "--cron: not a valid cron expression 'every morning'" in err


def test_new_run_ids_are_distinct_on_the_same_day() -> None:
    from datetime import UTC, datetime

    from ambiforge.run.layout import new_run_id

    now = datetime(2026, 11, 22, 3, 0, tzinfo=UTC)
    ids = {new_run_id("offline", 1, now) for _ in range(50)}
    assert len(ids) == 50
    assert all(i.startswith("20261122T030000Z-offline-s1-") for i in ids)


def test_run_state_and_option_guard(tmp_path: Path) -> None:
    assert read_state(tmp_path) == {"stages": {}}
    mark(tmp_path, "generate", "running")
    assert not is_done(tmp_path, "generate")
    mark(tmp_path, "generate", "done")
    assert is_done(tmp_path, "generate") and read_state(tmp_path)["stage"] == "generate"
    options = BuildOptions(run_id="r", pairs=10, seed=1).model_dump(mode="json")
    check_options(tmp_path, options)
    check_options(tmp_path, options | {"batch_size": 3})  # does not change the output
    with pytest.raises(ConfigError, match=r"run exists with different pairs, seed"):
        check_options(tmp_path, options | {"pairs": 11, "seed": 2})


def test_outcome_checkpoint_round_trip(catalog) -> None:
    from ambiforge.generation.offline import OfflineGenerator

    item, attempt = OfflineGenerator(catalog, 1, "r").generate(0, "safety")
    for outcome in (Outcome(0, "safety", item, attempt), Outcome(1, "safety", stage="generate", reason="x")):
        record = json.loads(json.dumps(outcome_to_record(outcome)))
        assert outcome_from_record(record) == outcome


def test_summary_markdown_and_worst_items() -> None:
    summary = {
        "run_id": "r1",
        "provider": "offline",
        "seed": 1,
        "items_written": 9,
        "pairs_requested": 10,
        "rejected_count": 1,
        "per_type": {"preferences": 5, "common_sense_knowledge": 3, "safety": 1},
        "type_share": {"preferences": 0.5556, "common_sense_knowledge": 0.3333, "safety": 0.1111},
        "target_type_mix": {"preferences": 0.472, "common_sense_knowledge": 0.398, "safety": 0.13},
        "rejected": [
            {
                "index": 4,
                "id": "amb-x",
                "ambiguity_type": "safety",
                "stage": "validate",
                "reason": "grounding: foo",
            }
        ],
        "seconds": {"total": 1.5},
    }
    md = summary_markdown(summary)
    assert "# Run `r1`" in md and "| preferences | 5 | 55.6% | 47.2% |" in md
    assert "| validate: grounding | 1 |" in md and "0 calls, 0 cache hits" in md
    assert top_reasons(summary["rejected"]) == [("validate: grounding", 1)]
    report = {
        "items": [
            {"id": "a", "failed": []},
            {"id": "b", "failed": [{"rule": "plan", "message": "m", "severity": "warning"}]},
        ]
    }
    rows = worst_items_table(report, summary["rejected"])
    assert [r["id"] for r in rows] == ["amb-x", "b"]


def test_only_transient_errors_are_retried() -> None:
    from ambiforge.engine.retries import is_transient
    from ambiforge.errors import InputError

    assert is_transient(ConnectionResetError())
    assert is_transient(TimeoutError())
    assert not is_transient(InputError("f.csv", "row 2", "bad"))
    assert not is_transient(ValueError("bug"))


def test_run_files_written_batch_by_batch_are_those_of_the_whole_list(catalog, tmp_path) -> None:  # type: ignore[no-untyped-def]
    """A build writes its items as batches arrive: the same items.jsonl, Parquet rows, rejections and
    statistics as writing the whole list at once."""
    import pyarrow.parquet as pq

    from ambiforge.engine.summary import RunFiles
    from ambiforge.generation.offline import OfflineGenerator
    from ambiforge.stats import dataset_stats
    from ambiforge.storage import read_items, write_items_jsonl

    generator = OfflineGenerator(catalog, 3, "r")
    outcomes = [Outcome(k, "safety", *generator.generate(k, "safety")) for k in range(7)]
    outcomes[2] = Outcome(2, "safety", outcomes[2].item, stage="validate", reason="bad")
    outcomes.insert(4, Outcome(9, "safety", stage="generate", reason="no scene"))
    kept = [o.item for o in outcomes if o.item is not None and o.stage is None]
    with RunFiles(tmp_path / "streamed") as files:
        for start in range(0, len(outcomes), 3):
            files.add(outcomes[start : start + 3])
    write_items_jsonl(tmp_path / "whole.jsonl", kept)
    streamed = tmp_path / "streamed"
    assert (streamed / "items.jsonl").read_bytes() == (tmp_path / "whole.jsonl").read_bytes()
    assert read_items(streamed / "items.parquet") == kept
    assert pq.ParquetFile(streamed / "items.parquet").num_row_groups == 3  # one per batch with items
    rejected = [json.loads(line) for line in (streamed / "rejected.jsonl").read_text().splitlines()]
    assert [(r["index"], r["stage"]) for r in rejected] == [(2, "validate"), (9, "generate")]
    assert files.items == len(kept) and files.stats.result() == dataset_stats(kept)


def test_run_files_of_no_items_are_readable_and_a_failed_build_leaves_none(tmp_path) -> None:  # type: ignore[no-untyped-def]
    from ambiforge.engine.summary import RunFiles
    from ambiforge.storage import read_items

    with RunFiles(tmp_path) as files:
        files.add([Outcome(0, "safety", stage="generate", reason="no scene")])
    assert read_items(tmp_path / "items.parquet") == [] and (tmp_path / "items.jsonl").read_text() == ""
    with pytest.raises(RuntimeError), RunFiles(tmp_path / "failed"):
        raise RuntimeError("interrupted")
    assert not any((tmp_path / "failed").iterdir())  # no file, not even a temporary one


def test_a_generated_file_read_in_batches_names_a_bad_line(catalog, tmp_path) -> None:  # type: ignore[no-untyped-def]
    from ambiforge.engine.checkpoints import outcome_batches, write_outcomes
    from ambiforge.errors import InputError
    from ambiforge.generation.offline import OfflineGenerator

    generator = OfflineGenerator(catalog, 1, "r")
    outcomes = [Outcome(k, "safety", *generator.generate(k, "safety")) for k in range(3)]
    path = write_outcomes(tmp_path / "generated.jsonl", outcomes)
    assert [[o.index for o in batch] for batch in outcome_batches(path, 2)] == [[0, 1], [2]]
    lines = path.read_text().splitlines()
    record = json.loads(lines[1])
    record["item"]["plan_for_clear_task"] = "not a list"
    path.write_text("\n".join([lines[0], json.dumps(record), lines[2]]) + "\n")
    with pytest.raises(InputError, match=r"generated\.jsonl: line 2: not a readable outcome"):
        list(outcome_batches(path, 2))


@pytest.fixture(scope="module")
def generated_run(catalog, tmp_path_factory):  # type: ignore[no-untyped-def]
    """A run's generated.jsonl with a rejected pair, a blank line and an item twice (the duplicate rules
    flag it), and the alive items in order."""
    from ambiforge.engine.checkpoints import write_outcomes
    from ambiforge.generation.offline import OfflineGenerator

    generator = OfflineGenerator(catalog, 1, "r")
    outcomes = [Outcome(k, "safety", *generator.generate(k, "safety")) for k in range(5)]
    outcomes[2] = Outcome(2, "safety", outcomes[2].item, stage="generate", reason="no scene")
    outcomes.append(Outcome(5, "safety", outcomes[0].item))
    options = BuildOptions(pairs=6, seed=1, run_id="r", out=str(tmp_path_factory.mktemp("out")))
    path = write_outcomes(Path(options.out) / "r" / "generated.jsonl", outcomes)
    lines = path.read_text().splitlines(keepends=True)
    path.write_text("".join([*lines[:3], "\n", *lines[3:]]))
    return options, [o.item for o in outcomes if o.stage is None]


class PicklingWorker:
    """A warm worker's ``call`` in this process: the step, its arguments and its result go through pickle,
    as they do to and from the worker process."""

    def call(self, fn, *args):  # type: ignore[no-untyped-def]
        import pickle

        fn, args = pickle.loads(pickle.dumps((fn, args)))
        return pickle.loads(pickle.dumps(fn(*args)))

    def parts(self, fn, *args):  # type: ignore[no-untyped-def]
        import pickle

        fn, args = pickle.loads(pickle.dumps((fn, args)))
        return (pickle.loads(pickle.dumps(part)) for part in fn(*args))

    def release(self) -> None:
        pass


@pytest.mark.parametrize(("workers", "warm"), [(False, False), (True, False), (False, True)])
def test_the_rules_pass_over_raw_lines_keeps_the_verdicts(generated_run, catalog, monkeypatch, workers, warm) -> None:  # type: ignore[no-untyped-def]
    """The validate stage's rules pass sends raw lines (to worker processes, from ``PARALLEL_FROM`` items
    on; with a warm worker, the duplicate rules run there) and gets the same failures by position as judging
    the items themselves."""
    from ambiforge.engine import pipeline
    from ambiforge.validation import stream
    from ambiforge.validation.context import RuleContext

    options, items = generated_run
    ctx = RuleContext(catalog=catalog, config=options.validation)
    want = stream.rule_failures(iter([items]), ctx)
    assert {f.rule for f in want[len(items) - 1]} >= {"duplicate_id", "duplicate"}
    monkeypatch.setattr(pipeline, "VALIDATE_BATCH", 2)
    if workers:
        monkeypatch.setattr(stream, "PARALLEL_FROM", 1)
    assert pipeline.check_rules(options, 6, *([PicklingWorker()] if warm else [])).failures == want


def test_the_rules_pass_names_a_bad_line_of_generated_pairs(generated_run, tmp_path) -> None:  # type: ignore[no-untyped-def]
    from ambiforge.engine import pipeline
    from ambiforge.errors import InputError

    options, _items = generated_run
    options = options.model_copy(update={"out": str(tmp_path)})
    source = Path(generated_run[0].out) / "r" / "generated.jsonl"
    lines = source.read_text().splitlines(keepends=True)
    record = json.loads(lines[4])
    record["item"]["plan_for_clear_task"] = "not a list"
    (tmp_path / "r").mkdir()
    (tmp_path / "r" / "generated.jsonl").write_text("".join([*lines[:4], json.dumps(record) + "\n", *lines[5:]]))
    with pytest.raises(InputError, match=r"generated\.jsonl: line 5: not a readable outcome"):
        pipeline.check_rules(options, 6)


def _scored_as_llm_pairs(options: BuildOptions, tmp_path: Path, failures_of) -> BuildOptions:  # type: ignore[no-untyped-def]
    """``options``' generated pairs written under ``tmp_path`` with each alive pair's meta as an LLM pair's:
    a losing candidate with a made-up failure, then the chosen one with ``failures_of(item)``."""
    from ambiforge.generation.llm.selection import Candidate
    from ambiforge.models import RuleFailure

    lost = RuleFailure(rule="hygiene", severity="error", message="the losing candidate's")
    lines = []
    for line in (Path(options.out) / "r" / "generated.jsonl").read_text().splitlines(keepends=True):
        if line.strip():
            outcome = outcome_from_record(json.loads(line))
            if outcome.item is not None and outcome.stage is None:
                chosen = Candidate(1, item=outcome.item, failures=failures_of(outcome.item))
                outcome.meta["candidates"] = [Candidate(0, item=outcome.item, failures=[lost]).record(False)]
                outcome.meta["candidates"].append(chosen.record(True))
            line = json.dumps(outcome_to_record(outcome)) + "\n"
        lines.append(line)
    (tmp_path / "r").mkdir(parents=True)
    (tmp_path / "r" / "generated.jsonl").write_text("".join(lines))
    return options.model_copy(update={"out": str(tmp_path)})


def test_a_worker_running_the_expectations_on_the_verdicts_writes_the_same_run(generated_run, tmp_path) -> None:  # type: ignore[no-untyped-def]
    """With a warm worker and no judge, the dataset expectations run there on the items the verdicts pass,
    while the build's process makes its second pass: the run's files and report are those of a build
    without a worker."""
    import shutil

    from ambiforge.engine import pipeline
    from ambiforge.engine.local import LocalExecutor

    options, _items = generated_run
    written = {}
    for name, worker in (("alone", None), ("worker", PicklingWorker())):
        out = tmp_path / name
        shutil.copytree(Path(options.out) / "r", out / "r")
        opts = options.model_copy(update={"out": str(out)})
        with LocalExecutor() as run:
            pipeline.validate(opts, {}, run, worker)
        folder = out / "r"
        written[name] = {
            "expectations": (folder / "validation" / "expectations.json").read_text(),
            "items": (folder / "items.jsonl").read_text(),
            "rejected": (folder / "rejected.jsonl").read_text(),
            "report": json.loads((folder / "validation" / "report.json").read_text().replace(str(out), "OUT")),
            "docs": (folder / "validation" / "data_docs" / "index.html").exists(),
        }
    assert written["worker"] == written["alone"]
    assert json.loads(written["alone"]["expectations"])["evaluated"] > 0 and written["alone"]["docs"]


@pytest.mark.parametrize("warm", [False, True])
def test_the_rules_pass_takes_an_llm_pairs_failures_from_its_chosen_candidate(  # type: ignore[no-untyped-def]
    generated_run, catalog, tmp_path, warm
) -> None:
    """An LLM pair's item rules ran when its candidates were scored: the rules pass keeps the chosen
    candidate's failures (with the duplicate rules' flags added) instead of judging the item again."""
    from ambiforge.engine import pipeline
    from ambiforge.models import RuleFailure
    from ambiforge.validation import stream
    from ambiforge.validation.context import RuleContext
    from ambiforge.validation.rules import check_item

    options, items = generated_run
    ctx = RuleContext(catalog=catalog, config=options.validation)
    scored = _scored_as_llm_pairs(options, tmp_path / "same", lambda item: check_item(item, ctx))
    worker = [PicklingWorker()] if warm else []
    assert pipeline.check_rules(scored, 6, *worker).failures == stream.rule_failures(iter([items]), ctx)

    recorded = RuleFailure(rule="plan", severity="warning", message="as recorded at selection")
    marked = _scored_as_llm_pairs(options, tmp_path / "marked", lambda item: [recorded])
    failures = pipeline.check_rules(marked, 6, *worker).failures
    assert sorted(failures) == list(range(len(items)))
    assert all(found[0] == recorded for found in failures.values())
    assert [f.rule for f in failures[len(items) - 1][1:]] == ["duplicate_id", "duplicate"]
