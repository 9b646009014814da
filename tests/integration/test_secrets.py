"""No API key is ever stored: failing builds with odd keys, and a flow that fails with a key in its
exception, leave no trace of the key in ``raw/`` (items, calls.jsonl, rejected.jsonl, the LLM cache, the
validation reports), in ``$PREFECT_HOME`` (prefect.db and its -wal) or in what the command printed."""

from __future__ import annotations

import gzip
import os
import subprocess
import sys
from pathlib import Path

import pytest

from ambiforge.redaction import MASK
from ambiforge.testing.kitchen_responder import KitchenResponder
from ambiforge.testing.llm_server import ScriptedLLMServer
from tests.conftest import REPO
from tests.integration import processes

GOOD_KEY = "sk-test-accepted-key-000000"
#: Accepted by the key check, refused by the server with a 401 that quotes the Authorization header back.
REFUSED_KEY = "sk-proj-Refused4Kx9QwZ7mN2pL5vB8cT1yH6"
NON_ASCII_KEY = "sk-proj-Ümlaut7Qx9RwZ4mN2pL5vB8cT1y"
SPACE_KEY = "sk-proj-Spaced3Kx9 QwZ7mN2pL5vB8cT1yH6"
NEWLINE_KEY = "sk-proj-Newline5Kx9QwZ7mN2pL5vB8cT1yH6\n"


def spellings(key: str) -> list[bytes]:
    """How the key could be stored: UTF-8 and Latin-1 bytes, and each long white-space-separated piece."""
    forms = {key.strip().encode("utf-8"), key.strip().encode("latin-1", "replace")}
    forms.update(piece.encode("utf-8") for piece in key.split() if len(piece) >= 8)
    forms.add(key.strip().encode("unicode_escape"))
    return sorted(forms)


def files_under(*roots: Path) -> list[Path]:
    return [p for root in roots if root.exists() for p in sorted(root.rglob("*")) if p.is_file()]


def assert_nowhere(key: str, roots: list[Path], printed: str) -> None:
    found = []
    for path in files_under(*roots):
        data = path.read_bytes()
        if path.suffix == ".gz":  # a release's JSON lines: look at what they hold, not their compressed bytes
            data = gzip.decompress(data)
        found += [f"{path} holds {form!r}" for form in spellings(key) if form in data]
    found += [f"printed {form!r}" for form in spellings(key) if form in printed.encode("utf-8", "replace")]
    assert not found, "\n".join(found)


def env_for(tmp_path: Path, **keys: str) -> dict[str, str]:
    env = {**os.environ, "PYTHONPATH": str(REPO), "PREFECT_HOME": str(tmp_path / "prefect-home")}
    for name in ("PREFECT_API_URL", "PREFECT_LOGGING_LEVEL", "OPENAI_API_KEY", "MISTRAL_API_KEY"):
        env.pop(name, None)
    return env | keys


def build(
    out: Path, run_id: str, provider: str, env: dict[str, str], prefect: bool = True
) -> subprocess.CompletedProcess[str]:
    """As Prefect flows (``--prefect`` unless ``prefect`` is false), so failed runs' state messages reach
    Prefect's database."""
    cmd = [sys.executable, "-m", "ambiforge.cli.main", "build", *(["--prefect"] if prefect else [])]
    cmd += ["--provider", provider, "--pairs", "2", "--run-id", run_id, "--out", str(out), "--seed", "3"]
    return processes.run(cmd, cwd=REPO, env=env, timeout=300)


@pytest.mark.slow
def test_failing_builds_with_odd_keys_store_and_print_no_key(tmp_path: Path) -> None:
    out = tmp_path / "raw"
    home = tmp_path / "prefect-home"
    with ScriptedLLMServer(KitchenResponder(), api_key=GOOD_KEY, echo_rejected_key=True) as server:
        endpoints = {"OPENAI_BASE_URL": server.openai_url, "MISTRAL_BASE_URL": server.url}
        printed = ""
        # An odd key is refused by the options' check, before any flow runs: one of the three goes through
        # --prefect (its temporary server started, then stopped), the other two skip that server's start-up.
        for run_id, name, key, provider, prefect in (
            ("non-ascii", "OPENAI_API_KEY", NON_ASCII_KEY, "openai", False),
            ("space", "OPENAI_API_KEY", SPACE_KEY, "openai", False),
            ("newline", "MISTRAL_API_KEY", NEWLINE_KEY, "mistral", True),
        ):
            result = build(out, run_id, provider, env_for(tmp_path, **endpoints, **{name: key}), prefect)
            printed += result.stdout + result.stderr
            errors = [line for line in result.stderr.splitlines() if line.startswith("ambiforge: error:")]
            assert result.returncode == 2, result.stderr
            assert len(errors) == 1 and name in errors[0] and "Traceback" not in result.stderr
        refused = build(out, "refused", "openai", env_for(tmp_path, **endpoints, OPENAI_API_KEY=REFUSED_KEY))
        printed += refused.stdout + refused.stderr
        assert refused.returncode == 1, refused.stderr  # every call refused: no item written
        assert server.statuses()["401"] >= 1
        good = build(out, "good", "openai", env_for(tmp_path, **endpoints, OPENAI_API_KEY=GOOD_KEY))
        printed += good.stdout + good.stderr
        assert good.returncode == 0, good.stderr  # replies cached, calls logged: with no key in them
    # The server did quote the key back, and it was redacted before calls.jsonl and rejected.jsonl.
    assert MASK in (out / "refused" / "calls.jsonl").read_text(encoding="utf-8")
    assert (home / "prefect.db").exists()
    assert any((out / ".llm-cache").rglob("*")) and (out / "good" / "calls.jsonl").stat().st_size > 0
    for key in (NON_ASCII_KEY, SPACE_KEY, NEWLINE_KEY, REFUSED_KEY, GOOD_KEY):
        assert_nowhere(key, [out, home], printed)


FAILING_FLOW = """
import logging, os
import flows  # installs the redaction hooks, as every flow process does
from prefect import flow, task, get_run_logger

KEY = os.environ["OPENAI_API_KEY"]

@task(retries=0)
def call():
    get_run_logger().error("request headers: {'Authorization': 'Bearer %s'}", KEY)
    raise RuntimeError(f"Illegal header value b'Bearer {KEY}'")

@flow
def failing():
    logging.getLogger("httpx").warning("sent Authorization: Bearer %s", KEY)
    call()

failing()
"""


@pytest.mark.slow
def test_a_failed_flow_stores_no_key_in_prefects_database(tmp_path: Path) -> None:
    """A task that fails with the header in its exception (as h11 raises it) and logs it: the state
    messages and logs Prefect stores, and the traceback printed, are redacted."""
    home = tmp_path / "prefect-home"
    env = env_for(tmp_path, OPENAI_API_KEY=REFUSED_KEY, PREFECT_LOGGING_LEVEL="INFO")
    result = processes.run([sys.executable, "-c", FAILING_FLOW], cwd=tmp_path, env=env, timeout=300)
    assert result.returncode == 1, result.stderr  # the flow failed, and said why
    assert "RuntimeError" in result.stderr and MASK in result.stderr
    db = home / "prefect.db"
    assert db.exists()
    assert MASK.encode() in b"".join(p.read_bytes() for p in files_under(home))  # the messages were stored
    assert_nowhere(REFUSED_KEY, [home, tmp_path], result.stdout + result.stderr)


ECHOED_KEY = "sk-proj-Echoed8Kx9QwZ7mN2pL5vB8cT1yH6"


def offline_items(path: Path, pairs: int) -> Path:
    from ambiforge.ambiguity import default_mix
    from ambiforge.catalog import cached_catalog
    from ambiforge.generation.mix import type_sequence
    from ambiforge.generation.offline import OfflineGenerator
    from ambiforge.storage import write_items_jsonl

    generator = OfflineGenerator(cached_catalog(""), 5, "echo")
    items = [generator.generate(i, t)[0] for i, t in enumerate(type_sequence(pairs, default_mix(), 5))]
    write_items_jsonl(path, items)
    return path


@pytest.mark.slow
@pytest.mark.parametrize("provider", ["openai", "mistral"])
def test_a_server_that_echoes_the_key_in_its_replies_gets_it_written_nowhere(tmp_path: Path, provider: str) -> None:
    """The key comes back inside successful replies (text, JSON values, model name): items, calls.jsonl, the
    LLM cache, the reports and an eval's files hold only ``[REDACTED]``."""
    from ambiforge.testing.scripted_eval import server_responder

    out, evals = tmp_path / "raw", tmp_path / "eval"
    name = "OPENAI_API_KEY" if provider == "openai" else "MISTRAL_API_KEY"
    env = env_for(tmp_path, **{name: ECHOED_KEY})
    with ScriptedLLMServer(KitchenResponder(), api_key=ECHOED_KEY, echo_key_in_reply=True) as server:
        env |= {"OPENAI_BASE_URL": server.openai_url, "MISTRAL_BASE_URL": server.url}
        cmd = [sys.executable, "-m", "ambiforge.cli.main", "build", "--provider", provider, "--pairs", "2"]
        built = processes.run([*cmd, "--run-id", "echo", "--out", str(out)], cwd=REPO, env=env, timeout=300)
        assert server.successes(), built.stderr
    with ScriptedLLMServer(server_responder, api_key=ECHOED_KEY, echo_key_in_reply=True) as server:
        env |= {"OPENAI_BASE_URL": server.openai_url, "MISTRAL_BASE_URL": server.url}
        data = offline_items(tmp_path / "items.jsonl", 6)
        cmd = [sys.executable, "-m", "ambiforge.cli.main", "eval", "--data", str(data), "--model", "scripted"]
        cmd += ["--provider", provider, "--method", "binary,nohelp", "--out", str(evals), "--name", "echo"]
        evaluated = processes.run(cmd, cwd=tmp_path, env=env, timeout=300)  # its LLM cache: tmp_path/raw
        assert server.successes(), evaluated.stderr
    written = "".join(p.read_text(encoding="utf-8", errors="replace") for p in files_under(out / "echo"))
    assert MASK in written  # the echo arrived, and was masked before it was kept
    assert_nowhere(
        ECHOED_KEY, [out, evals, tmp_path / "raw"], built.stdout + built.stderr + evaluated.stdout + evaluated.stderr
    )
