"""The in-process executor of local builds: the steps' retry policy and results as they finish, without
Prefect (a local build must not import it)."""

from __future__ import annotations

import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from ambiforge.engine import pipeline
from ambiforge.engine.local import RETRIES, LocalExecutor, with_retries
from ambiforge.errors import InputError
from tests.conftest import REPO


def flaky(failures: list[BaseException]):  # type: ignore[no-untyped-def]
    calls: list[int] = []

    def step() -> str:
        calls.append(1)
        if failures:
            raise failures.pop(0)
        return "done"

    return step, calls


def test_a_transient_error_is_retried_as_the_step_policy_says(monkeypatch: pytest.MonkeyPatch) -> None:
    step, calls = flaky([ConnectionError("reset"), TimeoutError("slow")])
    monkeypatch.setitem(RETRIES, step, pipeline.Retry(retries=2, delay=7.0))
    slept: list[float] = []
    assert with_retries(step, sleep=slept.append) == "done"
    assert len(calls) == 3 and slept == [7.0, 7.0]


def test_retries_run_out_and_bad_input_is_never_retried(monkeypatch: pytest.MonkeyPatch) -> None:
    step, calls = flaky([ConnectionError("1"), ConnectionError("2"), ConnectionError("3")])
    monkeypatch.setitem(RETRIES, step, pipeline.Retry(retries=2, delay=0.0))
    with pytest.raises(ConnectionError, match="3"):
        with_retries(step, sleep=lambda _: None)
    assert len(calls) == 3

    step, calls = flaky([InputError("x.csv", "row 2", "bad")])
    monkeypatch.setitem(RETRIES, step, pipeline.Retry(retries=2, delay=0.0))
    with pytest.raises(InputError):
        with_retries(step, sleep=lambda _: None)
    assert len(calls) == 1


def test_a_step_without_a_policy_fails_at_once() -> None:
    step, calls = flaky([ConnectionError("reset")])
    with pytest.raises(ConnectionError):
        with_retries(step, sleep=lambda _: None)
    assert len(calls) == 1


def test_the_batch_and_review_steps_retry_like_their_prefect_tasks() -> None:
    assert RETRIES[pipeline.generate_batch] == pipeline.BATCH_RETRY
    assert RETRIES[pipeline.review_push] == pipeline.REVIEW_RETRY


def test_results_come_as_steps_finish_and_all_steps_run_at_once() -> None:
    release = threading.Event()
    started = threading.Barrier(3, timeout=10)

    def step(name: str) -> str:
        started.wait()  # only passes when all three run at the same time
        if name == "slow":
            release.wait(10)
        return name

    with LocalExecutor() as run:
        futures = [run.submit(step, name) for name in ("slow", "a", "b")]
        results = run.results(futures)
        first = {next(results), next(results)}
        release.set()
        assert first == {"a", "b"} and list(results) == ["slow"]
        assert run.call(lambda: threading.current_thread()) is threading.current_thread()


def test_a_local_build_module_imports_no_prefect() -> None:
    probe = "import sys, ambiforge.engine.local, ambiforge.engine.pipeline\nprint('prefect' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", probe], cwd=REPO, capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "False"


def fails(key: str) -> None:
    raise KeyError(key)


def loaded_in_worker(name: str) -> tuple[int, bool]:
    import os

    return os.getpid(), name in sys.modules


def test_the_warm_worker_imports_ahead_runs_steps_in_its_own_process_and_is_killed_on_failure() -> None:
    import os

    from ambiforge.warm_worker import WarmWorker

    with pytest.raises(RuntimeError, match="the build failed"), WarmWorker(("tabnanny",)) as worker:
        pid, loaded = worker.call(loaded_in_worker, "tabnanny")
        assert pid != os.getpid() and loaded  # imported by the worker before any step asked for it
        with pytest.raises(KeyError, match="missing"):  # a step's exception is raised here
            worker.call(fails, "missing")
        process = worker.process
        raise RuntimeError("the build failed")
    assert process is not None and process.wait(10) != 0  # killed, not left to finish


GATED = "tests.unit.orchestration.gated_import"


def gated_import_state(wait: bool) -> tuple[bool, bool]:
    """(whether the gated module was being imported or imported, whether its import had finished)."""
    import importlib

    if wait:
        importlib.import_module(GATED)  # waits for the warm-up thread's import of it
    module = sys.modules.get(GATED)
    return module is not None, bool(getattr(module, "READY", False))


def bad_input(path: str) -> None:
    raise InputError(path, "row 3", "not JSON")


def test_the_warm_worker_serves_while_it_imports_what_only_later_steps_need(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    from ambiforge.warm_worker import WarmWorker

    gate = tmp_path / "gate"
    monkeypatch.setenv("AMBIFORGE_TEST_IMPORT_GATE", str(gate))
    with WarmWorker(("tabnanny",), (GATED,)) as worker:
        assert worker.call(loaded_in_worker, "tabnanny")[1]
        assert worker.call(gated_import_state, False) == (True, False)  # served while the import waits
        gate.touch()
        assert worker.call(gated_import_state, True) == (True, True)
        with pytest.raises(InputError, match=r"^items\.jsonl: row 3: not JSON$") as raised:  # bad input, whole
            worker.call(bad_input, "items.jsonl")
        assert (raised.value.path, raised.value.where, raised.value.detail) == ("items.jsonl", "row 3", "not JSON")


def test_a_released_warm_worker_exits_while_the_build_goes_on_and_a_later_call_gets_another() -> None:
    from ambiforge.warm_worker import WarmWorker

    with WarmWorker(("tabnanny",)) as worker:
        first, _ = worker.call(loaded_in_worker, "tabnanny")
        released = worker.process
        worker.release()
        assert released is not None and released.wait(10) == 0  # its stdin closed: it ended by itself
        second, _ = worker.call(loaded_in_worker, "tabnanny")  # a retried step
        assert second != first
        again = worker.process
    assert again is not None and again.returncode == 0 and worker.released == []


def in_parts(gate: str) -> Iterator[str]:
    import time

    yield "results"
    deadline = time.monotonic() + 30
    while not Path(gate).exists() and time.monotonic() < deadline:  # the caller has the first part meanwhile
        time.sleep(0.01)
    yield "docs"
    raise KeyError("after the parts")


def test_a_warm_worker_step_in_parts_gives_each_part_as_it_comes_then_its_error(tmp_path: Path) -> None:
    from ambiforge.warm_worker import WarmWorker

    gate = tmp_path / "gate"
    with WarmWorker(("tabnanny",)) as worker:
        parts = worker.parts(in_parts, str(gate))
        assert next(parts) == "results"  # while the step still waits for the gate
        gate.touch()
        assert next(parts) == "docs"
        with pytest.raises(KeyError, match="after the parts"):  # raised where the caller reads the rest
            next(parts)
        pid, loaded = worker.call(loaded_in_worker, "tabnanny")  # the replies are in step: the next call works
        assert isinstance(pid, int) and loaded is True
        assert next(worker.parts(in_parts, str(gate))) == "results"  # given up on after its first part
        assert worker.call(loaded_in_worker, "tabnanny") == (pid, True)  # its other replies are not this call's


def _probe_module(monkeypatch: pytest.MonkeyPatch, folder: Path, name: str) -> None:
    """A module ``name`` not imported yet, importable from ``folder``, that sets ``LOADED`` when imported."""
    (folder / f"{name}.py").write_text("LOADED = True\n")
    monkeypatch.syspath_prepend(str(folder))
    monkeypatch.delitem(sys.modules, name, raising=False)


def test_warm_imports_wait_for_their_event_then_import_in_a_thread(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    import threading

    from ambiforge.warm_worker import warm_imports

    _probe_module(monkeypatch, tmp_path, "ambiforge_warm_probe")
    go = threading.Event()
    thread = warm_imports(("ambiforge_warm_probe",), after=go)
    thread.join(0.2)
    assert thread.is_alive() and "ambiforge_warm_probe" not in sys.modules  # waiting for the event
    go.set()
    thread.join(10)
    assert not thread.is_alive() and sys.modules["ambiforge_warm_probe"].LOADED


def test_warm_imports_load_what_is_needed_first_and_survive_its_failure(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """``first`` runs before the imports; its failure is the step's to meet, not the warm-up's."""
    import threading

    from ambiforge.warm_worker import warm_imports

    _probe_module(monkeypatch, tmp_path, "ambiforge_warm_probe_two")
    order: list[str] = []

    def first() -> None:
        order.append(str("ambiforge_warm_probe_two" in sys.modules))
        raise RuntimeError("a warm-up that fails")

    go = threading.Event()
    thread = warm_imports(("ambiforge_warm_probe_two",), after=go, first=first)
    thread.join(0.2)
    assert thread.is_alive() and order == []
    go.set()
    thread.join(10)
    assert not thread.is_alive() and order == ["False"] and sys.modules["ambiforge_warm_probe_two"].LOADED
