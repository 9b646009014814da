"""Environment-induced items ship as their own configuration (issue 31, item 3): a release of a build with
the issue's type mix loads in ``datasets`` with AmbiK's types in the default configuration and the others in
``environment``; the AmbiK CSV and the splits leave them out; ``verify`` checks the configuration's files,
rows and counts, and names a forged row."""

from __future__ import annotations

import json
import shutil
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
import yaml

from ambiforge import ambiguity
from ambiforge.generation.mix import type_sequence
from ambiforge.generation.offline import OfflineGenerator
from ambiforge.models import Item
from ambiforge.releases.jsonl_form import jsonl_form
from ambiforge.releases.verify import verify_release
from ambiforge.releases.writer import release
from ambiforge.storage import read_records
from tests.unit.release import gz
from tests.unit.release.test_release import options, write_run
from tests.unit.release.test_verify import fails, manifest_of, reseal

#: the issue's "Done when" mix
MIX = {
    "preferences": 0.3,
    "common_sense_knowledge": 0.1,
    "safety": 0.1,
    "multiplicity": 0.2,
    "absence": 0.1,
    "reference": 0.1,
    "observation": 0.1,
}
AMBIK = ["preferences", "common_sense_knowledge", "safety"]
ENVIRONMENT = ["multiplicity", "absence", "reference", "observation"]


@pytest.fixture(scope="module")
def released(tmp_path_factory, catalog) -> tuple[Path, list[Item]]:  # type: ignore[no-untyped-def]
    tmp = tmp_path_factory.mktemp("environment")
    gen = OfflineGenerator(catalog, 11, "env")
    items = [gen.generate(i, t)[0] for i, t in enumerate(type_sequence(40, MIX, 11))]
    write_run(tmp / "raw", "env", items)
    return release(options(tmp, "1.0.0", ["env"], calibration_size=4, target_mix=MIX)), items


def test_the_registry_says_which_types_are_environment_induced() -> None:
    assert [n for n in ambiguity.names() if ambiguity.level(n) == "instruction"] == AMBIK
    assert [n for n in ambiguity.names() if ambiguity.level(n) == "environment"] == ENVIRONMENT
    assert ambiguity.level("a_type_of_imported_rows") == "instruction"


def test_environment_items_are_their_own_configuration(released) -> None:  # type: ignore[no-untyped-def]
    folder, items = released
    by_level = {
        lvl: [i for i in items if ambiguity.level(i.ambiguity_type) == lvl] for lvl in ("instruction", "environment")
    }
    assert {i.ambiguity_type for i in by_level["environment"]} == set(ENVIRONMENT)  # every type was made
    ids = {lvl: [i.id for i in group] for lvl, group in by_level.items()}
    assert [r["id"] for r in gz.rows(folder / "data.jsonl.gz")] == ids["instruction"]
    assert [r["id"] for r in gz.rows(folder / "environment" / "data.jsonl.gz")] == ids["environment"]
    in_parquet = read_records(folder / "environment" / "data.parquet")
    in_jsonl = gz.rows(folder / "environment" / "data.jsonl.gz")
    assert [jsonl_form(r) for r in in_parquet] == in_jsonl  # the graphs (both kitchens) in the Parquet file only
    assert all(r["world"]["graph"] and r["world"]["perturbation"]["graph"] for r in in_parquet)
    assert all("graph" not in r["world"] and "graph" not in r["world"]["perturbation"] for r in in_jsonl)
    split_ids = [r["id"] for s in ("calibration", "test") for r in read_records(folder / "splits" / f"{s}.parquet")]
    assert sorted(split_ids) == sorted(ids["instruction"])
    assert not list(folder.rglob("*.csv"))  # the AmbiK CSV layout is an export, not part of the release

    manifest = manifest_of(folder)
    counts = manifest["counts"]
    assert counts["total"] == len(ids["instruction"])
    assert {t: n for t, n in counts["per_type"].items() if n} == dict(
        Counter(i.ambiguity_type for i in by_level["instruction"])
    )
    env = counts["configurations"]["environment"]
    assert env["total"] == len(ids["environment"])
    assert {t: n for t, n in env["per_type"].items() if n} == dict(
        Counter(i.ambiguity_type for i in by_level["environment"])
    )
    assert {"environment/data.jsonl.gz", "environment/data.parquet"} <= {f["path"] for f in manifest["files"]}
    assert manifest["statistics"]["items"] == len(items)

    card = (folder / "README.md").read_text(encoding="utf-8")
    meta = yaml.safe_load(card.split("---\n")[1])
    assert [c["config_name"] for c in meta["configs"]] == ["default", "all", "environment"]
    assert (
        "Not in the splits nor in the AmbiK CSV export" in card
        and 'load_dataset(folder, "environment", cache_dir=cache)' in card
    )
    assert verify_release(folder)["rows"] == len(items)


def test_datasets_loads_the_default_and_the_environment_configuration(released, tmp_path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    monkeypatch.setenv("HF_DATASETS_OFFLINE", "1")
    monkeypatch.setenv("HF_HOME", str(tmp_path / "hf"))
    from datasets import ClassLabel, load_dataset

    folder, items = released
    default = load_dataset(str(folder), cache_dir=str(tmp_path / "hf"))
    environment = load_dataset(str(folder), "environment", cache_dir=str(tmp_path / "hf"))
    assert set(default) == {"calibration", "test"} and set(environment) == {"test"}
    for split in default.values():
        assert split.features["ambiguity_type"] == ClassLabel(names=AMBIK)
    loaded = [AMBIK[k] for s in default.values() for k in s["ambiguity_type"]]
    assert Counter(loaded) == Counter(i.ambiguity_type for i in items if i.ambiguity_type in AMBIK)
    env = environment["test"]
    assert env.features["ambiguity_type"] == ClassLabel(names=ENVIRONMENT)
    assert [ENVIRONMENT[k] for k in env["ambiguity_type"]] == [
        i.ambiguity_type for i in items if i.ambiguity_type in ENVIRONMENT
    ]
    assert all(row["world"]["perturbation"] is not None for row in env)


@pytest.fixture
def copy(released, tmp_path: Path) -> Path:  # type: ignore[no-untyped-def]
    target = tmp_path / "1.0.0"
    shutil.copytree(released[0], target)
    return target


def _rewrite(path: Path, row: int, edit: Any) -> None:
    lines = gz.read_text(path).splitlines()
    record = json.loads(lines[row - 1])
    edit(record)
    lines[row - 1] = json.dumps(record, ensure_ascii=False)
    gz.write_text(path, "\n".join(lines) + "\n")


def test_a_forged_environment_row_is_named(copy: Path) -> None:
    _rewrite(copy / "environment" / "data.jsonl.gz", 2, lambda r: r.update(question="Which one, really?"))
    reseal(copy, manifest_of(copy))
    fails(copy, "environment/data.parquet:2: field question differs", "'Which one, really?'")


def test_an_environment_row_relabelled_as_an_ambik_type_is_named(copy: Path) -> None:
    _rewrite(copy / "environment" / "data.jsonl.gz", 1, lambda r: r.update(ambiguity_type="preferences"))
    reseal(copy, manifest_of(copy))
    fails(copy, "environment/data.jsonl.gz:1:", "is preferences, not an environment-induced type")


def test_a_missing_environment_file_and_a_wrong_count_are_named(copy: Path) -> None:
    manifest = manifest_of(copy)
    manifest["counts"]["configurations"]["environment"]["total"] += 1
    reseal(copy, manifest, card=True)
    fails(copy, "counts.configurations.environment.total: manifest says")
    (copy / "environment" / "data.parquet").unlink()
    fails(copy, "environment/data.parquet")


def test_an_eval_of_the_release_scores_the_environment_items_as_test_items(released) -> None:  # type: ignore[no-untyped-def]
    from ambiforge.evaluation.data import load_dataset as load_eval_data

    folder, items = released
    data = load_eval_data(folder)
    calibration = {r["id"] for r in read_records(folder / "splits" / "calibration.parquet")}
    assert len(data.calibration) == len(calibration) == 4
    assert [i.id for i in data.items] == [
        *(i.id for i in items if ambiguity.level(i.ambiguity_type) == "instruction" and i.id not in calibration),
        *(i.id for i in items if ambiguity.level(i.ambiguity_type) == "environment"),
    ]


def test_diff_and_the_changelog_see_the_environment_configuration(released, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    from ambiforge.releases.changelog import compare_releases

    folder, items = released
    later = tmp_path / "1.1.0"
    shutil.copytree(folder, later)
    env_ids = [r["id"] for r in gz.rows(folder / "environment" / "data.jsonl.gz")]
    _rewrite(later / "environment" / "data.jsonl.gz", 3, lambda r: r.update(question="Which one, really?"))
    changes = compare_releases(folder, later)
    assert changes.changed == {env_ids[2]: ["question"]} and not changes.added and not changes.removed

    # a second release of the same runs: nothing added, removed or changed (the environment rows included)
    raw = folder.parents[1]
    again = release(options(raw, "1.0.1", ["env"], calibration_size=4, target_mix=MIX))
    assert manifest_of(again)["changes"] == {"previous": "1.0.0", "added": 0, "removed": 0, "changed": 0}
    assert len(items) == 40


def test_a_release_of_environment_items_only_verifies(tmp_path: Path, catalog) -> None:  # type: ignore[no-untyped-def]
    mix = {"multiplicity": 0.5, "absence": 0.5}
    gen = OfflineGenerator(catalog, 3, "only")
    items = [gen.generate(i, t)[0] for i, t in enumerate(type_sequence(6, mix, 3))]
    write_run(tmp_path / "raw", "only", items)
    folder = release(options(tmp_path, "1.0.0", ["only"], calibration_size=4, target_mix=mix))
    counts = manifest_of(folder)["counts"]
    assert counts["total"] == 0 and counts["configurations"]["environment"]["total"] == 6
    assert gz.rows(folder / "data.jsonl.gz") == []
    assert verify_release(folder)["rows"] == 6


@pytest.mark.parametrize("tool_mode", ["tools", "json"])
def test_sgcot_on_the_release_reports_every_type_beside_ambik_s_methods(
    released, tmp_path, monkeypatch, tool_mode
) -> None:  # type: ignore[no-untyped-def]
    """Issue 31's eval line on a release of the issue's mix: SG-CoT through the scripted server (tool calls and
    the JSON fallback) gives SR and CQR for every type, instruction- and environment-level, the cost table,
    and an ablation, in the same document as an AmbiK method."""
    from ambiforge.config.llm import LLMConfig
    from ambiforge.detectors.methods.settings import method_settings
    from ambiforge.evaluation.command import EvalOptions, run_eval
    from ambiforge.testing.llm_server import ScriptedLLMServer
    from ambiforge.testing.scripted_eval import server_responder

    folder, items = released
    with ScriptedLLMServer(server_responder, api_key="sk-env") as server:
        monkeypatch.setenv("OPENAI_API_KEY", "sk-env")
        monkeypatch.setenv("OPENAI_BASE_URL", server.openai_url)
        docs = {
            ablation: run_eval(
                EvalOptions(
                    data=folder,
                    methods=("binary", "sgcot"),
                    model="scripted",
                    out=tmp_path / "eval",
                    cache_dir=tmp_path / f"cache-{ablation}",
                    name=f"{tool_mode}-{ablation}",
                    llm=LLMConfig(rpm=0, max_retries=0, timeout_seconds=10),
                    settings=method_settings({}, {"tool_mode": tool_mode, "ablation": ablation}),
                )
            )
            for ablation in ("none", "whole_graph")
        }
    for ablation, doc in docs.items():
        assert set(doc["methods"]) == {"binary", "sgcot"}
        figures = doc["methods"]["sgcot"]["method_figures"]
        released_types = {i.ambiguity_type for i in items}
        assert set(ENVIRONMENT) <= released_types
        for kind in released_types:
            assert figures["n"][kind] + figures["errors"][kind] > 0, (ablation, kind)
            assert kind in figures["SR"] and kind in figures["CQR"], (ablation, kind, figures["SR"])
        assert figures["errors"]["all"] == 0, figures["errors"]
        assert set(figures["SR_by_level"]) >= {"instruction", "environment"}
        assert figures["calls_per_episode"] >= 1 and figures["input_tokens_per_call"] > 0
        if ablation == "whole_graph":  # the graph in the prompt, no retrieval: one call per episode
            assert figures["calls_per_episode"] == 1.0
        assert figures["tool_mode"] == [tool_mode]
