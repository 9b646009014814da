"""Bad input at the edge of every command: exit 2, exactly one ``ambiforge: error:`` line, no traceback,
and every file that existed before is byte for byte the same after.

Rows run in-process through ``ambiforge.cli.main.main`` (a traceback would escape it and fail the row), except
``serve``, which would serve forever if a check were missing: those run as killable subprocesses with a
timeout. Add a row for every bad input a user met.
"""

from __future__ import annotations

import hashlib
import json
import os
import sys
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from ambiforge.cli.main import main
from tests.conftest import REPO
from tests.integration import processes


@dataclass(frozen=True)
class Row:
    name: str
    argv: list[str]
    expect: str = ""  # a fragment the error line must contain (the option, key or file it names)
    setup: Callable[[Path], None] | None = None
    env: dict[str, str] = field(default_factory=dict)


def write(path: str, data: str | bytes) -> Callable[[Path], None]:
    def make(root: Path) -> None:
        target = root / path
        target.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(data, bytes):
            target.write_bytes(data)
        else:
            target.write_text(data, encoding="utf-8")

    return make


def both(*steps: Callable[[Path], None]) -> Callable[[Path], None]:
    def make(root: Path) -> None:
        for step in steps:
            step(root)

    return make


def toml(text: str) -> Callable[[Path], None]:
    return write("bad.toml", text)


def catalog(*change: object) -> Callable[[Path], None]:
    """The packaged catalog with one change: ``(key, value)`` at the top level, or ``(group key, value)``
    in its first group (``change[0]`` a tuple), written to cat.yaml."""

    def make(root: Path) -> None:
        import yaml

        from ambiforge.catalog.loader import default_catalog_path

        data = yaml.safe_load(default_catalog_path().read_text(encoding="utf-8"))
        key, value = change
        if isinstance(key, tuple):
            group = data["groups"][next(iter(data["groups"]))]
            target = group["objects"][0] if key[0] == "object" else group
            target[key[1]] = value
        else:
            data[key] = value
        (root / "cat.yaml").write_text(yaml.safe_dump(data), encoding="utf-8")

    return make


#: (name, (key, value), expected fragment): catalog entries of the wrong type.
CATALOG_ROWS: list[tuple[str, tuple[object, object], str]] = [
    ("int-top-key", (5, "x"), "keys must be names"),
    ("appliances-a-number", ("appliances", 5), "appliances"),
    ("groups-a-list", ("groups", [1, 2]), "groups"),
    ("group-key-a-number", ("groups", {7: {"kind": "food"}}), "keys must be names"),
    ("objects-a-number", (("group", "objects"), 5), "objects"),
    ("tags-a-number", (("group", "tags"), 5), "tags"),
    ("tags-nested-lists", (("group", "tags"), [[1]]), "tags"),
    ("defaults-a-list", (("group", "defaults"), [{"a": 1}]), "defaults"),
    ("noun-mass-text", (("group", "noun_mass"), "yes"), "noun_mass"),
    ("object-int-key", (("object", 1), True), "keys must be names"),
    ("version-a-list", ("version", [1]), "version"),
]


def broken_type(old: str, new: str) -> Callable[[Path], None]:
    """The fourth type's folder (``tests/fixtures/types/quantity``) as qty/ with one edit to its templates file,
    registered by bad.toml the way a user adds a type (``[ambiguity] folders``)."""

    def make(root: Path) -> None:
        source = REPO / "tests" / "fixtures" / "types" / "quantity"
        for path in source.rglob("*.yaml"):
            target = root / "qty" / path.relative_to(source)
            target.parent.mkdir(parents=True, exist_ok=True)
            text = path.read_text(encoding="utf-8")
            if path.name == "templates.yaml":
                assert old in text
                text = text.replace(old, new, 1)
            target.write_text(text, encoding="utf-8")
        (root / "bad.toml").write_text('[ambiguity]\nfolders = ["qty"]\n', encoding="utf-8")

    return make


EVAL_ENV = {"OPENAI_API_KEY": "sk-eval-0123456789"}
#: (name, extra eval options, expected fragment): options checked before the first call.
EVAL_ROWS: list[tuple[str, list[str], str]] = [
    ("samples-huge", ["--samples", "100000"], "--samples"),
    ("limit-negative", ["--limit", "-3"], "--limit"),
    ("limit-zero", ["--limit", "0"], "--limit"),
    ("calibration-size-zero", ["--calibration-size", "0"], "--calibration-size"),
    ("name-escapes-out", ["--name", "../x"], "--name"),
    ("out-is-a-file", ["--out", "keep.txt"], "--out"),
    ("attach-not-a-release", ["--attach", "keep.txt"], "--attach"),
    ("epsilon-nan", ["--epsilon", "nan"], "--epsilon"),
    ("persona-count", ["--method", "debate", "--persona", "careful"], "--persona"),
    ("persona-file-missing", ["--persona", "@nope.txt"], "nope.txt"),
]
LS_ENV = {"LABEL_STUDIO_URL": "http://127.0.0.1:9", "LABEL_STUDIO_API_KEY": "token0123456789"}
AMBIK_HEADER = (
    "id,environment_short,environment_full,unambiguous_direct,ambiguity_type,amb_shortlist,ambiguous_task,"
    "question,answer,plan_for_clear_task,plan_for_amb_task,end_of_ambiguity,user_intent,variants"
)
AMBIK_ROW = "1,mug,a mug,Take the mug.,preferences,,Take it.,Which?,The mug.,1. Take the mug.,1. Take it.,{eoa},,"
DUP_CSV = f"{AMBIK_HEADER},question\n{AMBIK_ROW.format(eoa=0)},Why?\n"
HUGE_EOA_CSV = f"{AMBIK_HEADER}\n{AMBIK_ROW.format(eoa='1e30')}\n"
GOOD_CSV = write("a.csv", f"{AMBIK_HEADER}\n{AMBIK_ROW.format(eoa=0)}\n")
ITEMS = write("i.jsonl", "")

B = ["build", "--out", "raw"]
CFG = ["--config", "bad.toml"]
CORRUPT_RUN = "run-x"
GOOD_OPTIONS_DIR = "raw/" + CORRUPT_RUN

ROWS: list[Row] = [
    # build: numbers and their bounds
    Row("pairs-zero", [*B, "--pairs", "0"], "--pairs"),
    Row("pairs-negative", [*B, "--pairs", "-5"], "--pairs"),
    Row("pairs-huge", [*B, "--pairs", "99999999999999999999"], "1,000,000"),
    Row("pairs-over-limit", [*B, "--pairs", "1000001"], "1,000,000"),
    Row("pairs-not-a-number", [*B, "--pairs", "many"], "--pairs"),
    Row("pairs-float", [*B, "--pairs", "1.5"], "--pairs"),
    Row("candidates-zero", [*B, "--candidates", "0"], "--candidates"),
    Row("candidates-huge", [*B, "--candidates", "100000"], "--candidates"),
    Row("seed-not-a-number", [*B, "--seed", "x"], "--seed"),
    Row("max-cost-negative", [*B, "--provider", "offline", "--max-cost", "-1"], "--max-cost"),
    Row("max-cost-nan", [*B, "--max-cost", "nan"], "--max-cost"),
    Row("max-cost-inf", [*B, "--max-cost", "inf"], "--max-cost"),
    # build: type mix
    Row("mix-nan", [*B, "--type-mix", "preferences=nan"], "finite"),
    Row("mix-inf", [*B, "--type-mix", "preferences=inf"], "finite"),
    Row("mix-negative", [*B, "--type-mix", "preferences=-1"], "negative"),
    Row("mix-zero", [*B, "--type-mix", "preferences=0"], "more than 0"),
    Row("mix-unknown-type", [*B, "--type-mix", "jokes=1"], "jokes"),
    Row("mix-no-equals", [*B, "--type-mix", "preferences"], "--type-mix"),
    Row("mix-not-a-number", [*B, "--type-mix", "preferences=lots"], "--type-mix"),
    # build: names, runners, models, providers
    Row("run-id-slash", [*B, "--run-id", "../escape"], "run id"),
    Row("run-id-empty-ish", [*B, "--run-id", "-x"], "run id"),
    Row("run-id-too-long", [*B, "--run-id", "r" * 101], "run id"),
    Row("provider-unknown", [*B, "--provider", "gpt"], "--provider"),
    Row("task-runner-unknown", [*B, "--task-runner", "spark"], "--task-runner"),
    Row("model-offline", [*B, "--provider", "offline", "--model", "m"], "--model"),
    Row("step-model-no-equals", [*B, "--step-model", "plan_clear"], "--step-model"),
    Row("dask-address-without-dask", [*B, "--dask-address", "tcp://127.0.0.1:1"], "--dask-address"),
    Row(
        "dask-address-closed-port",
        [*B, "--task-runner", "dask", "--dask-address", "tcp://127.0.0.1:1"],
        "no Dask scheduler answers",
    ),
    Row("dask-address-bad-scheme", [*B, "--task-runner", "dask", "--dask-address", "http://x:1"], "--dask-address"),
    Row("unknown-option", [*B, "--pears", "3"], "--pears"),
    # build: files where files are expected
    Row("catalog-missing", [*B, "--catalog", "nope.yaml"], "nope.yaml"),
    Row("catalog-is-a-folder", [*B, "--catalog", "adir"], "adir", write("adir/x", "")),
    Row("catalog-not-utf8", [*B, "--catalog", "cat.yaml"], "cat.yaml", write("cat.yaml", b"\xff\xfe\x00bad")),
    Row("out-is-a-file", ["build", "--out", "afile"], "--out", write("afile", "keep")),
    Row(
        "corrupt-state-json",
        [*B, "--pairs", "2", "--run-id", CORRUPT_RUN],
        "state.json",
        write(f"{GOOD_OPTIONS_DIR}/state.json", "{not json"),
    ),
    Row(
        "corrupt-options-json",
        [*B, "--pairs", "2", "--run-id", CORRUPT_RUN],
        "options.json",
        write(f"{GOOD_OPTIONS_DIR}/options.json", "[1, 2"),
    ),
    Row(
        "options-json-not-an-object",
        [*B, "--pairs", "2", "--run-id", CORRUPT_RUN],
        "options.json",
        write(f"{GOOD_OPTIONS_DIR}/options.json", "[1, 2]"),
    ),
    Row(
        "state-json-not-utf8",
        [*B, "--pairs", "2", "--run-id", CORRUPT_RUN],
        "state.json",
        write(f"{GOOD_OPTIONS_DIR}/state.json", b"\xff\xfe{}"),
    ),
    # build: configuration files
    Row("config-missing", [*B, "--config", "none.toml"], "none.toml"),
    Row("config-is-a-folder", [*B, "--config", "adir"], "adir", write("adir/x", "")),
    Row("config-not-utf8", [*B, *CFG], "UTF-8", write("bad.toml", b"[build]\npairs = 3\n# \xff\xfe\n")),
    Row("config-not-toml", [*B, *CFG], "TOML", toml("[build\n")),
    Row("config-unknown-section", [*B, *CFG], "bad.toml", toml("[bulid]\npairs = 3\n")),
    Row("config-unknown-key", [*B, *CFG], "build.pears", toml("[build]\npears = 3\n")),
    Row("config-pairs-string", [*B, *CFG], "build.pairs", toml('[build]\npairs = "many"\n')),
    Row("config-pairs-huge", [*B, *CFG], "build.pairs", toml("[build]\npairs = 99999999999\n")),
    Row("config-candidates-zero", [*B, *CFG], "build.candidates", toml("[build]\ncandidates = 0\n")),
    Row("config-batch-zero", [*B, *CFG], "build.batch_size", toml("[build]\nbatch_size = 0\n")),
    Row("config-mix-nan", [*B, *CFG], "type_mix", toml("[build.type_mix]\npreferences = nan\n")),
    Row("config-mix-unknown", [*B, *CFG], "type_mix", toml("[build.type_mix]\njokes = 1.0\n")),
    Row("sampler-reversed", [*B, *CFG], "sampler.food_groups", toml("[sampler]\nfood_groups = [5, 2]\n")),
    Row("sampler-negative", [*B, *CFG], "sampler.item_groups", toml("[sampler]\nitem_groups = [-1, 2]\n")),
    Row("sampler-one-number", [*B, *CFG], "sampler.per_group", toml("[sampler]\nper_group = [3]\n")),
    Row("sampler-huge", [*B, *CFG], "sampler.per_group", toml("[sampler]\nper_group = [1, 99999999]\n")),
    Row("sampler-not-a-list", [*B, *CFG], "sampler.food_groups", toml('[sampler]\nfood_groups = "2-5"\n')),
    Row("section-not-a-table", [*B, *CFG], "bad.toml", toml('sampler = "x"\n')),
    Row("ambiguity-folder-missing", [*B, *CFG], "ambiguity.folders", toml('[ambiguity]\nfolders = ["nope"]\n')),
    Row("ambiguity-not-a-table", [*B, *CFG], "ambiguity", toml('ambiguity = "x"\n')),
    Row("validation-unknown-key", [*B, *CFG], "validation", toml("[validation]\nnope = 1\n")),
    Row("judge-persona-empty", [*B, *CFG], "judge.personas", toml('[judge]\npersonas = ["a", "", "c"]\n')),
    Row(
        "judge-personas-vs-models",
        [*B, *CFG],
        "judge.personas",
        toml('[judge]\nmodels = ["a", "b"]\npersonas = ["x"]\n'),
    ),
    Row("release-tolerance-over-1", [*B, *CFG], "release.mix_tolerance", toml("[release]\nmix_tolerance = 2\n")),
    Row(
        "prompts-dir-missing",
        [*B, "--provider", "openai", *CFG],
        "prompts_dir",
        toml('[llm]\nprompts_dir = "nope"\n'),
        {"OPENAI_API_KEY": "sk-test"},
    ),
    Row("env-config-missing", B, "env.toml", env={"AMBIFORGE_CONFIG": "env.toml"}),
    # schema
    Row("schema-path-is-a-folder", ["schema", "--check", "--path", "adir"], "adir", write("adir/x", "")),
    Row("schema-unknown-option", ["schema", "--frobnicate"], "--frobnicate"),
    # validate
    Row("validate-missing-file", ["validate", "none.jsonl"], "none.jsonl"),
    Row("validate-folder", ["validate", "adir"], "adir", write("adir/x", "")),
    Row("validate-not-json", ["validate", "bad.jsonl"], "bad.jsonl", write("bad.jsonl", "{nope\n")),
    Row("validate-parquet-upper-as-text", ["validate", "items.PARQUET"], "items.PARQUET", write("items.PARQUET", "x")),
    Row("validate-bad-config", ["validate", "x.jsonl", *CFG], "bad.toml", toml("[build\n")),
    # import / export AmbiK
    Row("import-missing-csv", ["import-ambik", "none.csv", "--out", "o.jsonl"], "none.csv"),
    Row("import-out-is-a-folder", ["import-ambik", "a.csv", "--out", "adir"], "adir", write("adir/x", "")),
    Row("export-missing-items", ["export-ambik", "none.jsonl", "--out", "o.csv"], "none.jsonl"),
    Row("export-out-is-a-folder", ["export-ambik", "i.jsonl", "--out", "adir"], "adir", write("adir/x", "")),
    # release / diff (checks before any flow)
    Row("release-empty-from", ["release", "--version", "1.0.0", "--from", " , "], "--from"),
    Row("release-missing-version", ["release", "--from", "r"], "--version"),
    Row("release-bad-config", ["release", "--version", "1.0.0", "--from", "r", *CFG], "bad.toml", toml("x = [\n")),
    Row("diff-not-releases", ["diff", "nope1", "nope2"], "nope1"),
    # review (checks before Label Studio is contacted)
    Row("review-push-no-run", ["review", "push"], "--run"),
    Row("review-pull-bad-config", ["review", "pull", "--run", "r", *CFG], "bad.toml", toml("[paths\n")),
    # the command line itself
    Row("unknown-command", ["frobnicate"], "frobnicate"),
    # verify/release (verify branch)
    Row("verify-missing-folder", ["verify", "curated/9.9.9"], "curated/9.9.9"),
    Row("verify-a-file", ["verify", "keep.txt"], "keep.txt"),
    Row("verify-bad-option", ["verify", "curated/1.0.0", "--frobnicate"], "--frobnicate"),
    Row(
        "release-calibration-negative",
        ["release", "--version", "1.0.0", "--from", "r", "--calibration-size", "-1"],
        "--calibration-size",
    ),
    Row(
        "release-calibration-not-a-number",
        ["release", "--version", "1.0.0", "--from", "r", "--calibration-size", "x"],
        "--calibration-size",
    ),
    # an end_of_ambiguity of 1e30 in a run's items breaks the item schema (at most 10,000): the release's
    # schema gate refuses it, exit 1 (tests/unit/release/test_verify.py)
    # hardening branch
    Row(
        "import-duplicate-column",
        ["import-ambik", "dup.csv", "--out", "o.jsonl"],
        "'question' appears twice",
        write("dup.csv", DUP_CSV),
    ),
    Row("validate-items-not-utf8", ["validate", "bad.jsonl"], "line 1: not UTF-8", write("bad.jsonl", b"\xff\xfe\n")),
    Row(
        "validate-parquet-upper-not-parquet", ["validate", "items.PARQUET"], "Parquet", write("items.PARQUET", b"PAR1")
    ),
    Row("validate-jsonl-deeply-nested", ["validate", "deep.jsonl"], "deep.jsonl", write("deep.jsonl", "[" * 100000)),
    Row(
        "validate-catalog-int-key",
        ["validate", "x.jsonl", *CFG],
        "keys must be names",
        both(toml('[paths]\ncatalog = "cat.yaml"\n'), write("x.jsonl", ""), catalog(5, "x")),
    ),
    *[
        Row(f"catalog-{name}", [*B, "--provider", "offline", "--catalog", "cat.yaml"], expect, catalog(*change))
        for name, change, expect in CATALOG_ROWS
    ],
    Row(
        "catalog-deep-nesting",
        [*B, "--catalog", "cat.yaml"],
        "nested too deeply",
        write("cat.yaml", "version: 1\nappliances: " + "[" * 5000 + "]" * 5000 + "\ngroups: {}\n"),
    ),
    Row(
        "catalog-self-referencing",
        [*B, "--catalog", "cat.yaml"],
        "appliances",
        write("cat.yaml", "version: 1\nappliances: &a [*a]\ngroups: &g {x: *g}\n"),
    ),
    Row(
        "llm-step-unknown-partial",
        [*B, "--provider", "offline", *CFG],
        "llm.steps.mine.provider",
        toml('[llm.steps.mine]\nmodel = "m"\n'),
    ),
    Row(
        "llm-step-bad-temperature",
        [*B, "--provider", "offline", *CFG],
        "llm.steps.plan_clear.temperature",
        toml("[llm.steps.plan_clear]\ntemperature = 7\n"),
    ),
    Row("llm-steps-not-a-table", [*B, "--provider", "offline", *CFG], "llm.steps", toml('[llm]\nsteps = "x"\n')),
    Row("review-push-missing-run", ["review", "push", "--run", "nope"], "nope", env=LS_ENV),
    Row("review-push-bad-run-id", ["review", "push", "--run", "../x"], "run id", env=LS_ENV),
    Row(
        "review-push-not-configured",
        ["review", "push", "--run", CORRUPT_RUN],
        "LABEL_STUDIO_URL",
        env={"LABEL_STUDIO_URL": "", "LABEL_STUDIO_API_KEY": ""},
    ),
    Row(
        "review-push-bad-url",
        ["review", "push", "--run", CORRUPT_RUN],
        "LABEL_STUDIO_URL",
        env={**LS_ENV, "LABEL_STUDIO_URL": "localhost8080"},
    ),
    Row(
        "review-push-url-bad-port",
        ["review", "push", "--run", CORRUPT_RUN],
        "LABEL_STUDIO_URL",
        env={**LS_ENV, "LABEL_STUDIO_URL": "http://127.0.0.1:99999"},
    ),
    Row(
        "review-push-key-non-ascii",
        ["review", "push", "--run", CORRUPT_RUN],
        "LABEL_STUDIO_API_KEY",
        env={**LS_ENV, "LABEL_STUDIO_API_KEY": "t\u00f6ken0123456789"},
    ),
    Row(
        "review-pull-key-white-space",
        ["review", "pull", "--run", CORRUPT_RUN],
        "LABEL_STUDIO_API_KEY",
        write(f"annotation/{CORRUPT_RUN}/tasks.json", '{"project_id": 1}'),
        {**LS_ENV, "LABEL_STUDIO_API_KEY": "token 0123456789\n"},
    ),
    Row("review-pull-never-pushed", ["review", "pull", "--run", CORRUPT_RUN], "never pushed", env=LS_ENV),
    Row(
        "review-pull-corrupt-tasks-json",
        ["review", "pull", "--run", CORRUPT_RUN],
        "tasks.json",
        write(f"annotation/{CORRUPT_RUN}/tasks.json", "{nope"),
        LS_ENV,
    ),
    Row(
        "review-pull-tasks-json-no-project",
        ["review", "pull", "--run", CORRUPT_RUN],
        "project_id",
        write(f"annotation/{CORRUPT_RUN}/tasks.json", "[]"),
        LS_ENV,
    ),
    Row(
        "build-key-non-ascii",
        [*B, "--provider", "openai"],
        "OPENAI_API_KEY",
        env={"OPENAI_API_KEY": "sk-\u00fcmlaut0123456789"},
    ),
    Row(
        "build-key-white-space",
        [*B, "--provider", "mistral"],
        "MISTRAL_API_KEY",
        env={"MISTRAL_API_KEY": "sk-0123456789\n"},
    ),
    *[
        Row(
            f"eval-{name}", ["eval", "--data", "i.jsonl", "--model", "m", *args], expect, write("i.jsonl", ""), EVAL_ENV
        )
        for name, args, expect in EVAL_ROWS
    ],
    Row(
        "eval-key-non-ascii",
        ["eval", "--data", "i.jsonl", "--model", "m"],
        "OPENAI_API_KEY",
        write("i.jsonl", ""),
        {"OPENAI_API_KEY": "sk-\u00e9t\u00e90123456789"},
    ),
    Row(
        "eval-key-missing",
        ["eval", "--data", "i.jsonl", "--model", "m"],
        "OPENAI_API_KEY is not set",
        write("i.jsonl", ""),
        {"OPENAI_API_KEY": ""},
    ),
    Row(
        "import-end-of-ambiguity-huge",
        ["import-ambik", "e.csv", "--out", "o.parquet"],
        "end_of_ambiguity",
        write("e.csv", HUGE_EOA_CSV),
    ),
    Row(
        "llm-timeout-infinite",
        [*B, "--provider", "openai", *CFG],
        "llm.timeout_seconds",
        toml("[llm]\ntimeout_seconds = inf\n"),
        EVAL_ENV,
    ),
    Row(
        "llm-max-tokens-huge",
        [*B, "--provider", "openai", *CFG],
        "llm.steps.plan_clear.max_tokens",
        toml("[llm.steps.plan_clear]\nmax_tokens = 99999999999\n"),
        EVAL_ENV,
    ),
    Row("review-config-write-and-check", ["review", "config", "--write", "--check"], "--write"),
    # hardening, second round (issue 30): data loss
    Row("export-out-is-the-input", ["export-ambik", "i.jsonl", "--out", "i.jsonl"], "also the input", ITEMS),
    Row(
        "export-out-is-the-input-by-a-link",
        ["export-ambik", "i.jsonl", "--out", "raw/../i.jsonl"],
        "also the input",
        ITEMS,
    ),
    Row("export-out-not-csv", ["export-ambik", "i.jsonl", "--out", "o.txt"], "does not end in .csv", ITEMS),
    Row(
        "import-out-in-a-release",
        ["import-ambik", "a.csv", "--out", "curated/1.0.0/data.jsonl"],
        "inside the release folder",
        both(GOOD_CSV, write("curated/1.0.0/data.jsonl", "{}\n")),
    ),
    Row(
        "import-out-in-a-folder-with-a-manifest",
        ["import-ambik", "a.csv", "--out", "old/2.0.0/splits/x.parquet"],
        "inside the release folder",
        both(GOOD_CSV, write("old/2.0.0/manifest.json", "{}")),
    ),
    Row("import-out-suffix-unclear", ["import-ambik", "a.csv", "--out", "out.txt"], "format to write", GOOD_CSV),
    Row("import-out-is-the-input", ["import-ambik", "a.csv", "--out", "a.csv"], "also the input", GOOD_CSV),
    # hardening, second round: values that must fail
    Row("provider-empty", [*B, "--provider", ""], "--provider: empty"),
    Row("model-empty", [*B, "--provider", "openai", "--model", ""], "--model: empty", env=EVAL_ENV),
    Row("type-mix-empty", [*B, "--type-mix", ""], "--type-mix: empty"),
    Row("task-runner-empty", [*B, "--task-runner", ""], "--task-runner: empty"),
    Row("run-id-empty", [*B, "--run-id", ""], "--run-id: empty"),
    Row("mix-type-twice", [*B, "--type-mix", "safety=0.5,safety=0.5"], "given twice"),
    Row("seed-40-digits", [*B, "--seed", "1" * 40], "--seed must be between 0 and"),
    Row("seed-negative", [*B, "--seed", "-1"], "--seed"),
    Row("config-seed-huge", [*B, *CFG], "build.seed", toml(f"[build]\nseed = {2**63}\n")),
    Row("config-pairs-true", [*B, *CFG], "build.pairs", toml("[build]\npairs = true\n")),
    Row("config-release-seed-true", [*B, *CFG], "release.seed", toml("[release]\nseed = true\n")),
    Row(
        "config-min-over-max-words",
        [*B, *CFG],
        "min_task_words (100) is more than max_task_words (3)",
        toml("[validation]\nmin_task_words = 100\nmax_task_words = 3\n"),
    ),
    Row(
        "config-similarity-nan",
        [*B, *CFG],
        "validation.near_duplicate_similarity",
        toml("[validation]\nnear_duplicate_similarity = nan\n"),
    ),
    Row("config-tolerance-nan", [*B, *CFG], "release.mix_tolerance", toml("[release]\nmix_tolerance = nan\n")),
    Row(
        "config-provider-kind-unknown",
        [*B, *CFG],
        "unknown provider kind 'nope'",
        toml('[llm.providers.mine]\nkind = "nope"\napi_key_env = "MINE_KEY"\ndefault_model = "m"\n'),
    ),
    *[
        Row(
            f"eval-{option}-empty",
            ["eval", "--data", "i.jsonl", "--model", "m", f"--{option}", ""],
            f"--{option}: empty",
            write("i.jsonl", ""),
            EVAL_ENV,
        )
        for option in ("model", "provider", "name")
    ],  # fmt: skip
    # hardening, second round: the configuration file read within limits
    Row("config-a-fifo", [*B, *CFG], "not a regular file", lambda root: os.mkfifo(root / "bad.toml")),
    Row("config-over-1-mib", [*B, *CFG], "at most 1048576", toml("#" * (1024 * 1024 + 1))),
    Row("schema-config-missing", ["schema", "--config", "none.toml"], "none.toml"),
    Row("review-config-bad-config", ["review", "config", *CFG], "bad.toml", toml("[build\n")),
]

SERVE_ROWS: list[Row] = [
    Row("serve-pairs-negative", ["serve", "--cron", "0 3 * * *", "--pairs", "-1"], "--pairs"),
    Row("serve-pairs-huge", ["serve", "--cron", "0 3 * * *", "--pairs", "99999999999999999999"], "--pairs"),
    Row("serve-bad-cron", ["serve", "--cron", "every day"], "--cron"),
    Row("serve-no-cron", ["serve"], "--cron"),
    Row("serve-mix-nan", ["serve", "--cron", "0 3 * * *", "--type-mix", "safety=nan"], "finite"),
    Row("serve-max-cost-negative", ["serve", "--cron", "0 3 * * *", "--max-cost", "-1"], "--max-cost"),
    Row("serve-name-escapes", ["serve", "--cron", "0 3 * * *", "--name", "../x"], "--name"),
    Row("serve-name-empty", ["serve", "--cron", "0 3 * * *", "--name", ""], "--name"),
    Row("serve-cron-arabic-indic", ["serve", "--cron", "\u0663 * * * *"], "--cron"),
    Row("serve-cron-empty", ["serve", "--cron", " "], "--cron"),
    Row("serve-seed-40-digits", ["serve", "--cron", "0 3 * * *", "--seed", "9" * 40], "--seed"),
]


#: A type folder with a bad templates file (``[ambiguity] folders``): the build stops before any work, also
#: when the mix leaves the type out and in an LLM build, which draws its scenes from the templates too.
TEMPLATE_ROWS: list[Row] = [
    Row(
        "templates-bad-key",
        [*B, *CFG],
        "qty/templates.yaml: templates[0] (pour_little): co.f.tags_anyy",
        broken_type("tags_any: [drink]", "tags_anyy: [drink]"),
    ),
    Row(
        "templates-llm-build",
        [*B, *CFG, "--provider", "openai", "--type-mix", "quantity=1"],
        "qty/templates.yaml: templates[1] (fill_halfway): mechanism",
        broken_type("- key: fill_halfway\n", "- key: fill_halfway\n    mechanism: irony\n"),
        env=EVAL_ENV,
    ),
]


def snapshot(root: Path) -> dict[str, str]:
    return {
        str(p.relative_to(root)): hashlib.sha256(p.read_bytes()).hexdigest()
        for p in sorted(root.rglob("*"))
        if p.is_file()
    }


def prepare(root: Path, row: Row) -> None:
    (root / "keep.txt").write_text("existing file\n")
    (root / "raw" / CORRUPT_RUN).mkdir(parents=True)
    (root / "raw" / CORRUPT_RUN / "items.jsonl").write_text('{"id": "x"}\n')
    if row.setup:
        row.setup(root)


def check(row: Row, code: int, err: str, before: dict[str, str], root: Path) -> None:
    errors = [line for line in err.splitlines() if line.startswith("ambiforge: error:")]
    assert code == 2, f"{row.name}: exit {code}\n{err}"
    assert len(errors) == 1, f"{row.name}: {len(errors)} error lines\n{err}"
    assert "Traceback" not in err, f"{row.name}:\n{err}"
    assert row.expect in errors[0], f"{row.name}: {row.expect!r} not in {errors[0]!r}"
    after = snapshot(root)
    changed = [name for name, digest in before.items() if after.get(name) != digest]
    assert not changed, f"{row.name}: changed {changed}"


@pytest.mark.parametrize("row", ROWS, ids=[r.name for r in ROWS])
def test_bad_input_is_one_line_and_exit_2(
    row: Row, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    prepare(tmp_path, row)
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("AMBIFORGE_CONFIG", raising=False)
    for name, value in row.env.items():
        monkeypatch.setenv(name, value)
    before = snapshot(tmp_path)
    code = main(list(row.argv))
    check(row, code, capsys.readouterr().err, before, tmp_path)


@pytest.mark.parametrize("row", TEMPLATE_ROWS, ids=[r.name for r in TEMPLATE_ROWS])
def test_a_bad_templates_file_stops_a_build_before_any_work(
    row: Row, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from ambiforge import ambiguity

    try:
        test_bad_input_is_one_line_and_exit_2(row, tmp_path, monkeypatch, capsys)
        assert [p.name for p in (tmp_path / "raw").iterdir()] == [CORRUPT_RUN]  # no run folder was started
    finally:
        if "quantity" in ambiguity.names():  # registered from the row's folder: later rows must not see it
            ambiguity.unregister("quantity")


@pytest.mark.parametrize("row", SERVE_ROWS, ids=[r.name for r in SERVE_ROWS])
def test_serve_rejects_bad_input_before_serving(row: Row, tmp_path: Path) -> None:
    prepare(tmp_path, row)
    before = snapshot(tmp_path)
    env = {**os.environ, "PYTHONPATH": str(REPO), **row.env}
    env.pop("AMBIFORGE_CONFIG", None)
    proc = processes.run([sys.executable, "-m", "ambiforge.cli.main", *row.argv], cwd=tmp_path, env=env, timeout=120)
    check(row, proc.returncode, proc.stderr, before, tmp_path)


def test_the_sweep_covers_every_command() -> None:
    commands = {r.argv[0] for r in ROWS + SERVE_ROWS}
    assert {"build", "serve", "validate", "schema", "release", "diff", "review", "import-ambik"} <= commands
    assert len(ROWS) + len(SERVE_ROWS) >= 60
    json.dumps([r.name for r in ROWS])  # names are plain strings (test ids)
