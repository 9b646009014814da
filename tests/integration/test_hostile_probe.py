"""A hostile probe: what a misbehaving model server, a forged results file, a failing plugin or a lying scene
graph can do to ambiforge. Every case ends in one line naming the problem (or the correct result): no
traceback, no hang, no input file changed, nothing written where it should not be.

Bad arguments to the Python API and config values of the wrong type are probed in their own modules.
"""

from __future__ import annotations

import copy
import hashlib
import json
import os
import shutil
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any, ClassVar

import pytest

from ambiforge.cli.main import main
from ambiforge.config.llm import LLMConfig
from ambiforge.config.providers import PROVIDERS, ProviderSpec
from ambiforge.detectors.methods import base as methods_base
from ambiforge.detectors.methods.base import Detection, DirectDetector
from ambiforge.errors import AmbiforgeError, InputError, LLMCallError, PluginError
from ambiforge.evaluation.command import EvalOptions, run_eval
from ambiforge.evaluation.data import load_dataset
from ambiforge.generation.offline import OfflineGenerator
from ambiforge.llm.budget import Budget
from ambiforge.llm.calls import CallCache, CallLog, read_calls
from ambiforge.llm.client import CallPurpose, LLMClient
from ambiforge.llm.limiter import LocalLimiter
from ambiforge.llm.providers import ChatRequest
from ambiforge.llm.providers.mistral import MistralProvider
from ambiforge.llm.providers.openai import OpenAIProvider
from ambiforge.releases.verify_world import world_problem
from ambiforge.releases.writer import ReleaseOptions, release
from ambiforge.stages import registry as stage_registry
from ambiforge.stages.contract import FunctionStage, StageContext
from ambiforge.storage import write_items_jsonl
from ambiforge.testing.llm_server import MISBEHAVIOURS, ScriptedLLMServer
from ambiforge.testing.scripted_eval import ScriptedModel, server_responder
from ambiforge.validation import RuleContext
from ambiforge.validation.rules import check_item
from ambiforge.validation.rules.base import RULES, Rule, RuleFamily
from tests.conftest import REPO
from tests.integration import processes
from tests.unit.evaluation.fixtures import ITEMS

KEY = "sk-probe-0123456789"


def snapshot(root: Path) -> dict[str, str]:
    return {
        str(p.relative_to(root)): hashlib.sha256(p.read_bytes()).hexdigest()
        for p in sorted(root.rglob("*"))
        if p.is_file()
    }


def one_line(text: str) -> str:
    assert "\n" not in text.strip(), text
    assert "Traceback" not in text, text
    return text.strip()


def error_line(err: str) -> str:
    lines = [line for line in err.splitlines() if line.startswith("ambiforge: error:")]
    assert len(lines) == 1, err
    assert "Traceback" not in err, err
    return lines[0]


# -- 1. model servers that misbehave -------------------------------------------------------------------------

#: What the one line says for each misbehaviour (the server, the call and the field are named too).
SAYS = {
    "choices_not_list": "choices is text, not a list",
    "choices_empty_object": "choices[0].message is null",
    "message_null": "choices[0].message is null",
    "content_number": "choices[0].message.content is a number",
    "html": "the reply is not JSON (text/html",
    "error_in_200": "a 200 reply carrying an error: upstream model crashed",
    "json_list": "the reply is a list, not a JSON object",
    "usage_strings": "usage.prompt_tokens is text '",
    "usage_negative": "usage.prompt_tokens is a number -5",
    "retry_after_inf": "429",
    "retry_after_day": "429",
    "huge": "over the cap of 1.0 MiB ([llm] max_reply_bytes)",
    "huge_undeclared": "passed the cap of 1.0 MiB ([llm] max_reply_bytes)",
    "trickle": "still arriving after 1.5 s ([llm] timeout_seconds",
}
#: What the Mistral SDK reads on its own (it coerces counts given as text): the correct result.
MISTRAL_READS = {"usage_strings", "usage_negative"}


def client_for(tmp: Path, server: ScriptedLLMServer, provider: str) -> tuple[LLMClient, list[float]]:
    settings = LLMConfig(max_retries=1, backoff_seconds=0.01, max_backoff_seconds=2.0, timeout_seconds=1.5)
    cap = 1024 * 1024
    sdk = (
        OpenAIProvider(KEY, server.openai_url, settings.timeout_seconds, max_reply_bytes=cap)
        if provider == "openai"
        else MistralProvider(KEY, server.url, settings.timeout_seconds, max_reply_bytes=cap)
    )
    log = CallLog(tmp / "run" / "calls.jsonl")
    client = LLMClient(
        settings, log, CallCache(tmp / "cache"), LocalLimiter(2, 0), Budget(log.path, None), {provider: sdk}
    )
    waits: list[float] = []
    client.sleep = waits.append
    return client, waits


@pytest.mark.parametrize("provider", ["openai", "mistral"])
@pytest.mark.parametrize("mode", MISBEHAVIOURS)
def test_a_misbehaving_server_ends_in_one_line_naming_server_call_and_fault(
    tmp_path: Path, provider: str, mode: str
) -> None:
    with ScriptedLLMServer(
        lambda body: '{"task": "Bring me the mug."}',
        api_key=KEY,
        misbehave=mode,
        huge_bytes=3 * 1024 * 1024,
        trickle_seconds=0.5,
    ) as server:
        client, waits = client_for(tmp_path, server, provider)
        request = ChatRequest(provider, "gpt-4o", (("user", "hi"),), 0.2, 50, 1, {"type": "json_object"})
        purpose = CallPurpose("run", "probe_step", "probe", "1", pair=7)
        started = time.monotonic()
        if provider == "mistral" and mode in MISTRAL_READS:
            result = client.call(request, purpose, lambda t: (json.loads(t), None))
            assert result.parsed == {"task": "Bring me the mug."}
            return
        with pytest.raises(LLMCallError) as caught:
            client.call(request, purpose, lambda t: (json.loads(t), None))
        elapsed = time.monotonic() - started
    line = one_line(str(caught.value))
    assert line.startswith("step probe_step, pair 7 (call ") and f"{provider} " in line, line
    assert SAYS[mode] in line, line
    assert caught.value.exit_code == 1
    assert elapsed < 6, f"{mode}: {elapsed:.1f} s"  # the deadline and the capped Retry-After hold
    if mode.startswith("retry_after"):
        assert waits == [2.0]  # inf and a day are both capped at max_backoff_seconds
    records = list(read_calls(tmp_path / "run" / "calls.jsonl"))
    assert len(records) == 1 and records[0]["error"] == line.split(": ", 1)[1]
    assert not (tmp_path / "cache").exists() or not any((tmp_path / "cache").rglob("*.json"))  # nothing cached


def eval_cli(tmp: Path, server: ScriptedLLMServer, monkeypatch: pytest.MonkeyPatch) -> list[str]:
    data = write_items_jsonl(tmp / "input" / "items.jsonl", ITEMS)
    (tmp / "input" / "ambiforge.toml").write_text(
        "[llm]\ntimeout_seconds = 2\nmax_retries = 1\nmax_backoff_seconds = 1\nrpm = 0\nconcurrency = 2\n"
    )
    monkeypatch.setenv("OPENAI_API_KEY", KEY)
    monkeypatch.setenv("OPENAI_BASE_URL", server.openai_url)
    # the eval in-process, as a user without a Prefect server runs it (the session's harness is hidden from
    # tests that do not ask for it: tests/conftest.py)
    monkeypatch.delenv("PREFECT_API_URL", raising=False)
    monkeypatch.chdir(tmp)
    config = str(tmp / "input" / "ambiforge.toml")
    return ["eval", "--data", str(data), "--model", "m", "--method", "binary", "--calibration-size", "2"] + [
        "--out",
        str(tmp / "eval"),
        "--config",
        config,
    ]


def folder_bytes(folder: Path) -> int:
    return sum(p.stat().st_size for p in folder.rglob("*") if p.is_file())


def test_a_40_mb_a_call_server_stops_the_eval_with_one_line_and_little_written(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    with ScriptedLLMServer(server_responder, api_key=KEY, misbehave="huge_undeclared") as server:
        argv = eval_cli(tmp_path, server, monkeypatch)
        before = snapshot(tmp_path / "input")
        code = main(argv)
    line = error_line(capsys.readouterr().err)
    assert code == 1 and "too_large" in line and "openai at http://127.0.0.1:" in line and "step binary" in line
    assert snapshot(tmp_path / "input") == before
    assert folder_bytes(tmp_path) < 10 * 1024 * 1024


def test_a_one_byte_a_second_server_is_cut_at_the_call_deadline(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    with ScriptedLLMServer(server_responder, api_key=KEY, misbehave="trickle", trickle_seconds=1.0) as server:
        argv = eval_cli(tmp_path, server, monkeypatch)
        before = snapshot(tmp_path / "input")
        started = time.monotonic()
        code = main(argv)
        elapsed = time.monotonic() - started
    line = error_line(capsys.readouterr().err)
    assert code == 1 and "deadline" in line and "after 2 s" in line, line
    assert elapsed < 20, elapsed  # two calls at a time, each cut at 2 s: not the minutes a full reply takes
    assert snapshot(tmp_path / "input") == before


# -- 2. results files given to eval rescore --------------------------------------------------------------------


@pytest.fixture(scope="module")
def results(tmp_path_factory: pytest.TempPathFactory) -> Path:
    tmp = tmp_path_factory.mktemp("results")
    data = write_items_jsonl(tmp / "items.jsonl", ITEMS)
    opts = EvalOptions(
        data=data,
        methods=("knowno", "binary"),
        model="scripted",
        out=tmp / "eval",
        name="run",
        calibration_size=2,
        cache_dir=tmp / "cache",
        llm=LLMConfig(rpm=0),
    )
    run_eval(opts, model=ScriptedModel())
    return tmp / "eval" / "run"


REQUIRED = (
    "method",
    "item_id",
    "half",
    "ambiguity_type",
    "task",
    "gold_step",
    "user_intent",
    "variants",
    "shortlist",
    "options",
    "scores",
    "prediction_set",
    "set_options",
    "asked",
    "calls",
    "details",
    "error",
    "correct",
    "metrics",
)


def _drop(key: str) -> Callable[[dict[str, Any]], Any]:
    return lambda row: {k: v for k, v in row.items() if k != key}


def _set(key: str, value: Any) -> Callable[[dict[str, Any]], Any]:
    return lambda row: {**row, key: value}


#: (name, change to the first calibrated row, what the line names)
ROW_FORGERIES: list[tuple[str, Callable[[dict[str, Any]], Any], str]] = [
    *[(f"missing-{key}", _drop(key), f"field '{key}' is missing") for key in REQUIRED],
    ("half-123", _set("half", 123), "field half: 123"),
    ("half-other", _set("half", "both"), "field half"),
    ("user-intent-int", _set("user_intent", 5), "field user_intent: 5"),
    ("user-intent-ints", _set("user_intent", [1, 2]), "field user_intent/"),
    ("prediction-set-out-of-range", lambda r: {**r, "prediction_set": [len(r["options"]) + 3]}, "index"),
    ("prediction-set-negative", _set("prediction_set", [-1]), "field prediction_set/0"),
    ("prediction-set-text", _set("prediction_set", "0"), "field prediction_set"),
    ("asked-text", _set("asked", "yes"), "field asked"),
    ("options-text", _set("options", "a, b"), "field options"),
    ("scores-short", lambda r: {**r, "scores": r["scores"][:-1]}, "field scores"),
    (
        "correct-short",
        lambda r: {**r, "correct": r["correct"][:-1] or [True, True, True, True, True, True]},
        "field correct",
    ),
    ("unknown-type", _set("ambiguity_type", "telepathy"), "not a registered ambiguity type"),
    ("type-number", _set("ambiguity_type", 4), "field ambiguity_type"),
    ("extra-field", _set("sneaky", 1), "sneaky"),
    ("metrics-text", _set("metrics", "good"), "field metrics"),
    ("metrics-hr-2", lambda r: {**r, "metrics": {**(r["metrics"] or {}), "HR": 2}}, "field metrics"),
    ("method-number", _set("method", 7), "field method"),
    ("details-list", _set("details", []), "field details"),
    ("error-number", _set("error", 3), "field error"),
    ("calls-text", _set("calls", "c1"), "field calls"),
    ("row-list", lambda r: [r], "not an object"),
    ("row-number", lambda r: 42, "not an object"),
    ("row-null", lambda r: None, "not an object"),
]

#: (name, bytes of results.jsonl or results.json, which file, what the line names)
FILE_FORGERIES: list[tuple[str, bytes, str, str]] = [
    ("binary", b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR" + bytes(range(256)) * 4, "results.jsonl", "not UTF-8"),
    ("control-bytes", bytes(range(256)) * 4, "results.jsonl", "line 1: not JSON"),
    ("malformed", b'{"method": "binary", \n', "results.jsonl", "line 1: not JSON"),
    ("empty", b"", "results.jsonl", "no per-item results"),
    ("blank-lines", b"\n\n\n", "results.jsonl", "no per-item results"),
    ("truncated-last", None, "results.jsonl", "not JSON"),  # type: ignore[list-item]
    ("summary-list", b"[1, 2, 3]", "results.json", "not the eval's summary object"),
    ("summary-malformed", b'{"name": ', "results.json", "results.json: not JSON"),
    ("summary-name-number", b'{"name": 5}', "results.json", "name: 5 is not text"),
    ("summary-binary", b"\xff\xfe\x00", "results.json", "not UTF-8"),
]


def rescore_case(folder: Path, tmp: Path) -> tuple[Path, dict[str, str]]:
    target = tmp / "run"
    shutil.copytree(folder, target)
    for stale in target.glob("rescore-*.json"):
        stale.unlink()
    return target, snapshot(target)


def assert_rescore_refused(
    target: Path, before: dict[str, str], needle: str, capsys: pytest.CaptureFixture[str]
) -> None:
    code = main(["eval", "rescore", str(target)])
    line = error_line(capsys.readouterr().err)
    assert code == 2, line
    assert needle in line, line
    assert snapshot(target) == before  # nothing changed, no rescore-*.json written


@pytest.mark.parametrize("name,change,needle", ROW_FORGERIES, ids=[f[0] for f in ROW_FORGERIES])
def test_a_forged_results_row_is_named_by_line_and_field(
    results: Path, tmp_path: Path, name: str, change: Callable[[dict[str, Any]], Any], needle: str,
    capsys: pytest.CaptureFixture[str],
) -> None:  # fmt: skip
    target, _ = rescore_case(results, tmp_path)
    lines = (target / "results.jsonl").read_text().splitlines()
    number = next(n for n, line in enumerate(lines) if json.loads(line)["method"] == "knowno")
    lines[number] = json.dumps(change(json.loads(lines[number])))
    (target / "results.jsonl").write_text("\n".join(lines) + "\n")
    before = snapshot(target)
    code = main(["eval", "rescore", str(target)])
    line = error_line(capsys.readouterr().err)
    assert code == 2, line
    assert f"line {number + 1}" in line and needle in line, line
    assert snapshot(target) == before


@pytest.mark.parametrize("name,data,file,needle", FILE_FORGERIES, ids=[f[0] for f in FILE_FORGERIES])
def test_a_forged_results_file_is_one_line(
    results: Path, tmp_path: Path, name: str, data: bytes | None, file: str, needle: str,
    capsys: pytest.CaptureFixture[str],
) -> None:  # fmt: skip
    target, _ = rescore_case(results, tmp_path)
    if data is None:  # the last line cut in the middle
        text = (target / file).read_bytes()
        data = text[: len(text) - 40]
    (target / file).write_bytes(data)
    assert_rescore_refused(target, snapshot(target), needle, capsys)


def test_a_faithful_results_file_still_rescores(results: Path, tmp_path: Path) -> None:
    target, _ = rescore_case(results, tmp_path)
    assert main(["eval", "rescore", str(target), "--metrics", "authors"]) == 0
    assert json.loads((target / "rescore-authors.json").read_text())["methods"].keys() == {"knowno", "binary"}


# -- 4. plugins that fail ---------------------------------------------------------------------------------


def _boom(*args: Any) -> Any:
    return 1 // 0


RULE_FAILURES: list[tuple[str, Callable[..., Any], str]] = [
    ("raises", _boom, "ZeroDivisionError: integer division or modulo by zero"),
    ("returns-42", lambda item, ctx: 42, "returned int, not a list of messages"),
    ("returns-none", lambda item, ctx: None, "returned NoneType, not a list of messages"),
    ("returns-numbers", lambda item, ctx: [1, 2], "returned list, not a list of messages"),
    ("raises-keyerror", lambda item, ctx: {}["x"], "KeyError: 'x'"),
]


@pytest.fixture(scope="module")
def offline_items(catalog) -> dict[str, Any]:  # type: ignore[no-untyped-def]
    gen = OfflineGenerator(catalog, 31, "probe")
    kinds = ["preferences", "common_sense_knowledge", "safety", "multiplicity", "absence", "reference", "observation"]
    return {t: gen.generate(i, t)[0] for i, t in enumerate(kinds)}


@pytest.mark.parametrize("name,check,needle", RULE_FAILURES, ids=[f[0] for f in RULE_FAILURES])
def test_a_failing_plugin_rule_is_named(
    offline_items: dict[str, Any], catalog: Any, name: str, check: Callable[..., Any], needle: str
) -> None:
    RULES.register(RuleFamily((Rule("probe_rule", "error", check, "a probe"),)), name="probe_rules")
    try:
        item = offline_items["safety"]
        with pytest.raises(PluginError) as caught:
            check_item(item, RuleContext(catalog=catalog))
    finally:
        RULES.unregister("probe_rules")
    line = one_line(str(caught.value))
    assert line.startswith(f"plugin probe_rules (registered in code) failed on item {item.id!r} (rule probe_rule): ")
    assert needle in line, line


def test_a_failing_plugin_rule_stops_validate_with_one_line(
    offline_items: dict[str, Any], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    data = write_items_jsonl(tmp_path / "items.jsonl", [offline_items["safety"]])
    before = snapshot(tmp_path)
    RULES.register(RuleFamily((Rule("probe_rule", "error", _boom, "a probe"),)), name="probe_rules")
    try:
        code = main(["validate", str(data), "--out", str(tmp_path / "report")])
    finally:
        RULES.unregister("probe_rules")
    line = error_line(capsys.readouterr().err)
    assert code == 1 and "plugin probe_rules (registered in code) failed on item" in line, line
    assert all(snapshot(tmp_path).get(k) == v for k, v in before.items())


BOOM_RULES = """
from ambiforge.validation.rules.base import Rule

ORDER = 2000


def boom(item, ctx):
    return 1 // 0


RULES = (Rule("boom_rule", "error", boom, "a plugin rule that fails"),)
"""


def test_an_installed_plugin_rule_that_fails_is_named_by_entry_point_and_package(
    offline_items: dict[str, Any], tmp_path: Path
) -> None:
    """A real entry point of a real (tiny) distribution: the line names the entry point and the package."""
    plugins = tmp_path / "plugins"
    info = plugins / "boomplug-1.0.dist-info"
    info.mkdir(parents=True)
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: boomplug\nVersion: 1.0\n")
    (info / "entry_points.txt").write_text("[ambiforge.rules]\nboom = boomplug_rules\n")
    (plugins / "boomplug_rules.py").write_text(BOOM_RULES)
    data = write_items_jsonl(tmp_path / "input" / "items.jsonl", [offline_items["safety"]])
    before = snapshot(tmp_path / "input")
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(REPO), str(plugins)])}
    env.pop("AMBIFORGE_CONFIG", None)
    argv = [sys.executable, "-m", "ambiforge.cli.main", "validate", str(data), "--out", str(tmp_path / "report")]
    done = processes.run(argv, cwd=tmp_path, env=env, timeout=300)
    line = error_line(done.stderr)
    assert done.returncode == 1, done.stderr
    assert line == (
        f"ambiforge: error: plugin boom (boomplug) failed on item {offline_items['safety'].id!r} (rule boom_rule): "
        "ZeroDivisionError: integer division or modulo by zero"
    )
    assert snapshot(tmp_path / "input") == before


class _ProbeMethod(DirectDetector):
    name: ClassVar[str] = "probe_method"
    needs_logprobs: ClassVar[bool] = False
    sequential_calls: ClassVar[int] = 1
    behaviour: ClassVar[str] = "raise"

    def detect(self, task: Any, model: Any, settings: Any) -> Any:
        if self.behaviour == "raise":
            return {}["options"]
        if self.behaviour == "none":
            return None
        return Detection(["a", "b"], [0.5, 0.5], None, False)

    def decide(self, detection: Detection, calibration: Any) -> Any:
        if self.behaviour == "decide":
            raise RuntimeError("no decision\nsecond line")
        return detection if self.behaviour != "decide-dict" else {"asked": True}


@pytest.mark.parametrize(
    "behaviour,needle",
    [
        ("raise", "(ambiguous half, detect): KeyError: 'options'"),
        ("none", "returned NoneType, not a Detection"),
        ("decide", "decide): RuntimeError: no decision"),
        ("decide-dict", "returned dict, not a Detection"),
    ],
)
def test_a_failing_plugin_eval_method_is_named(tmp_path: Path, behaviour: str, needle: str) -> None:
    method = type("ProbeMethod", (_ProbeMethod,), {"behaviour": behaviour})
    methods_base.register("probe_method", method)
    try:
        data = write_items_jsonl(tmp_path / "items.jsonl", ITEMS)
        opts = EvalOptions(
            data=data,
            methods=("probe_method",),
            model="scripted",
            out=tmp_path / "eval",
            name="run",
            calibration_size=2,
            cache_dir=tmp_path / "cache",
            llm=LLMConfig(rpm=0),
        )
        with pytest.raises(PluginError) as caught:
            run_eval(opts, model=ScriptedModel())
    finally:
        methods_base.unregister("probe_method")
    line = one_line(str(caught.value))
    assert line.startswith("plugin probe_method (registered in code) failed on item "), line
    assert needle in line, line


@pytest.mark.parametrize(
    "function,needle",
    [
        (_boom, "ZeroDivisionError"),
        (lambda records, context: {"records": records}, "returned dict, not a list of records"),
        (lambda records, context: None, "returned NoneType, not a list of records"),
    ],
)
def test_a_failing_plugin_stage_is_named(function: Callable[..., Any], needle: str) -> None:
    stage_registry.register(FunctionStage("probe_stage", "1", ("outcomes",), ("outcomes",), function))
    try:
        with pytest.raises(PluginError) as caught:
            stage_registry.get("probe_stage").run([1, 2, 3], StageContext())
    finally:
        stage_registry.unregister("probe_stage")
    line = one_line(str(caught.value))
    assert line.startswith(
        "plugin probe_stage (registered in code) failed on a batch of 3 record(s) (stage probe_stage)"
    )
    assert needle in line, line


class _ProbeProvider:
    name = "probe_provider"

    def __init__(self, behaviour: str) -> None:
        self.behaviour = behaviour

    def complete(self, request: ChatRequest) -> Any:
        if self.behaviour == "raise":
            raise ValueError("cannot parse\nthe rest")
        return {"text": "hello"}


@pytest.mark.parametrize(
    "behaviour,needle", [("raise", "ValueError: cannot parse"), ("dict", "returned dict, not a ChatReply")]
)
def test_a_failing_plugin_provider_is_named(tmp_path: Path, behaviour: str, needle: str) -> None:
    spec = ProviderSpec("probe_provider", "PROBE_PROVIDER_KEY", "PROBE_PROVIDER_URL", "m", lambda *a: None)  # type: ignore[arg-type, return-value]
    PROVIDERS.register(spec)
    try:
        log = CallLog(tmp_path / "calls.jsonl")
        client = LLMClient(
            LLMConfig(max_retries=0),
            log,
            CallCache(tmp_path / "cache"),
            LocalLimiter(1, 0),
            Budget(log.path, None),
            {"probe_provider": _ProbeProvider(behaviour)},  # type: ignore[dict-item]
        )
        request = ChatRequest("probe_provider", "m", (("user", "hi"),), 0.2, 20, 1)
        with pytest.raises(PluginError) as caught:
            client.call(request, CallPurpose("run", "probe_step", "probe", "1", pair=3), lambda t: ({"t": t}, None))
    finally:
        PROVIDERS.unregister("probe_provider")
    line = one_line(str(caught.value))
    assert line.startswith("plugin probe_provider (registered in code) failed on step probe_step, pair 3 (call ")
    assert needle in line, line


# -- 5. scene graphs that lie ------------------------------------------------------------------------------

Record = dict[str, Any]


def _objects(graph: Record) -> list[str]:
    return [n["id"] for n in graph["nodes"] if n["type"] == "object"]


def _cycle(graph: Record) -> None:
    a, b = _objects(graph)[:2]
    graph["edges"] = [
        e for e in graph["edges"] if a not in (e["source"], e["target"]) and b not in (e["source"], e["target"])
    ]
    graph["edges"] += [
        {"source": a, "relation": "inside", "target": b},
        {"source": b, "relation": "inside", "target": a},
    ]


def _ghost_edge(graph: Record) -> None:
    graph["edges"].append({"source": _objects(graph)[0], "relation": "next_to", "target": "ghost_node"})


def _two_places(graph: Record) -> None:
    node = _objects(graph)[0]
    held = {e["target"] for e in graph["edges"] if e["source"] == node and e["relation"] in ("in", "on")}
    places = [
        n for n in graph["nodes"] if n["type"] == "place" and n.get("holds") in ("in", "on") and n["id"] not in held
    ]
    graph["edges"].append({"source": node, "relation": places[0]["holds"], "target": places[0]["id"]})


def _unknown_relation(graph: Record) -> None:
    graph["edges"][0]["relation"] = "under"


def _empty(graph: Record) -> None:
    graph["nodes"], graph["edges"] = [], []


def _duplicate(graph: Record) -> None:
    graph["nodes"].append(copy.deepcopy(graph["nodes"][0]))


def _self_edge(graph: Record) -> None:
    node = _objects(graph)[0]
    graph["edges"].append({"source": node, "relation": "next_to", "target": node})


GRAPH_LIES: dict[str, Callable[[Record], None]] = {
    "cycle": _cycle,
    "edge-to-missing-node": _ghost_edge,
    "two-places": _two_places,
    "unknown-relation": _unknown_relation,
    "empty": _empty,
    "duplicate-id": _duplicate,
    "self-edge": _self_edge,
}


def _in_clear(lie: Callable[[Record], None]) -> Callable[[Record], None]:
    return lambda record: lie(record["world"]["graph"])


def _in_perturbed(lie: Callable[[Record], None]) -> Callable[[Record], None]:
    return lambda record: lie(record["world"]["perturbation"]["graph"])


#: (name, the item type to forge, the change, what the line names)
LIES: list[tuple[str, str, Callable[[Record], None], str]] = [
    *[(f"clear-{name}", "preferences", _in_clear(lie), "world.graph") for name, lie in GRAPH_LIES.items()],
    *[
        (f"perturbed-{name}", "multiplicity", _in_perturbed(lie), "world.perturbation.graph")
        for name, lie in GRAPH_LIES.items()
    ],
    ("target-missing", "safety", lambda r: r["world"].update(target="unicorn"), "world.target"),
    ("candidate-missing", "preferences", lambda r: r["world"]["candidates"].append("unicorn"), "world.candidates"),
    (
        "plan-node-missing",
        "preferences",
        lambda r: r["world"]["clear_plan"][0].update(obj="unicorn"),
        "world.clear_plan[0].obj",
    ),
    (
        "view-names-missing-node",
        "observation",
        lambda r: r["world"]["perturbation"]["views"][0]["nodes"].append("unicorn"),
        "world.perturbation.views[0].nodes",
    ),
    (
        "added-missing",
        "multiplicity",
        lambda r: r["world"]["perturbation"]["added"].append("unicorn"),
        "world.perturbation.added",
    ),
    (
        "removed-missing",
        "absence",
        lambda r: r["world"]["perturbation"]["removed"].append("unicorn"),
        "world.perturbation.removed",
    ),
    (
        "environment-item-without-changed-kitchen",
        "absence",
        lambda r: r["world"].update(perturbation=None),
        "world.perturbation",
    ),
]


def forged(offline_items: dict[str, Any], kind: str, change: Callable[[Record], None]) -> Record:
    record = json.loads(offline_items[kind].model_dump_json())
    change(record)
    return record


@pytest.mark.parametrize("name,kind,change,needle", LIES, ids=[lie[0] for lie in LIES])
def test_verify_refuses_a_lying_world(
    offline_items: dict[str, Any], name: str, kind: str, change: Callable[[Record], None], needle: str
) -> None:
    assert world_problem(json.loads(offline_items[kind].model_dump_json())) is None  # the honest item passes
    problem = world_problem(forged(offline_items, kind, change))
    assert problem is not None and one_line(problem).startswith(needle), problem


@pytest.mark.parametrize("name,kind,change,needle", LIES, ids=[lie[0] for lie in LIES])
def test_eval_refuses_what_validate_rejects(
    offline_items: dict[str, Any], tmp_path: Path, name: str, kind: str, change: Callable[[Record], None], needle: str
) -> None:
    good = [json.loads(i.model_dump_json()) for i in offline_items.values()]
    data = tmp_path / "items.jsonl"
    data.write_text("".join(json.dumps(r) + "\n" for r in [*good, forged(offline_items, kind, change)]))
    before = snapshot(tmp_path)
    with pytest.raises(InputError) as caught:
        load_dataset(data)
    line = one_line(str(caught.value))
    assert f"record {len(good) + 1}" in line and "world" in line, line
    assert snapshot(tmp_path) == before


@pytest.mark.parametrize("name,kind,change,needle", LIES, ids=[lie[0] for lie in LIES])
def test_release_refuses_a_lying_world(
    offline_items: dict[str, Any], tmp_path: Path, name: str, kind: str, change: Callable[[Record], None], needle: str
) -> None:
    run = tmp_path / "raw" / "r1"
    run.mkdir(parents=True)
    good = [json.loads(i.model_dump_json()) for i in offline_items.values()]
    (run / "items.jsonl").write_text(
        "".join(json.dumps(r) + "\n" for r in [*good, forged(offline_items, kind, change)])
    )
    before = snapshot(run)
    opts = ReleaseOptions(
        version="1.0.0",
        run_ids=["r1"],
        raw=tmp_path / "raw",
        curated=tmp_path / "curated",
        annotation=tmp_path / "annotation",
        allow_unreviewed=True,
        calibration_size=1,
        seed=3,
        mix_tolerance=1.0,
    )
    with pytest.raises(AmbiforgeError) as caught:
        release(opts)
    line = one_line(str(caught.value))
    assert "r1/items.jsonl:8" in line and "world" in line, line
    assert snapshot(run) == before  # the run's items untouched (the gate's own report goes to release-gates/)
    assert not (tmp_path / "curated" / "1.0.0").exists()


def test_the_probe_has_at_least_150_cases() -> None:
    cases = (
        len(MISBEHAVIOURS) * 2
        + 2
        + len(ROW_FORGERIES)
        + len(FILE_FORGERIES)
        + len(RULE_FAILURES)
        + 2
        + 4
        + 3
        + 2
        + 3 * len(LIES)
    )
    assert cases >= 150, cases
