"""The run lock (one writer per folder, stale locks taken over), the stopping event at the limiter, and the
run files a rerun reads (corrupt ones are one line naming the file)."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from ambiforge import interrupts
from ambiforge.engine import state
from ambiforge.errors import InputError
from ambiforge.llm.limiter import LocalLimiter
from ambiforge.run.lock import FolderBusy, release_lock, remove_stale_release_tmp, run_lock


def test_a_second_writer_is_refused_naming_the_holder(tmp_path: Path) -> None:
    with run_lock(tmp_path / "r1", "r1") as path:
        busy = rf"run r1 is being written by pid {os.getpid()} on .* since "
        with pytest.raises(FolderBusy, match=busy), run_lock(tmp_path / "r1", "r1"):
            pass
        assert json.loads(path.read_text())["pid"] == os.getpid()
    with run_lock(tmp_path / "r1", "r1"):  # released at the end of the block
        pass


def test_a_lock_left_by_a_dead_process_is_taken_over(tmp_path: Path) -> None:
    folder = tmp_path / "r"
    holder = subprocess.Popen(
        [
            sys.executable,
            "-c",
            "import sys, time\nfrom ambiforge.run.lock import run_lock\n"
            "with run_lock(sys.argv[1], 'r'):\n    print('locked', flush=True)\n    time.sleep(60)\n",
            str(folder),
        ],
        stdout=subprocess.PIPE,
        text=True,
        env={**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[3])},
    )
    try:
        assert holder.stdout is not None and holder.stdout.readline().strip() == "locked"
        with pytest.raises(FolderBusy, match=f"pid {holder.pid} "), run_lock(folder, "r"):
            pass
    finally:
        holder.send_signal(signal.SIGKILL)
        holder.wait()
    assert f'"pid": {holder.pid}' in (folder / ".lock").read_text()  # the dead holder's record is still there
    with run_lock(folder, "r") as path:  # ... and the lock is free: the kernel dropped it with the process
        assert json.loads(path.read_text())["pid"] == os.getpid()


def test_release_lock_and_stale_tmp_folders(tmp_path: Path) -> None:
    (tmp_path / ".tmp-1.0.0-abc123" / "data").mkdir(parents=True)
    (tmp_path / ".tmp-1.1.0-def456").mkdir()
    with release_lock(tmp_path, "1.0.0"):
        with pytest.raises(FolderBusy, match="release 1.0.0"), release_lock(tmp_path, "1.0.0"):
            pass
        with release_lock(tmp_path, "1.1.0"):  # another version of the same folder is free
            pass
        removed = remove_stale_release_tmp(tmp_path, "1.0.0")
    assert [p.name for p in removed] == [".tmp-1.0.0-abc123"]
    assert (tmp_path / ".tmp-1.1.0-def456").is_dir()  # another version's folder is not ours to remove
    assert sorted(p.name for p in tmp_path.iterdir()) == [".tmp-1.1.0-def456"]  # the lock is not in curated/


def test_no_call_starts_once_the_process_is_stopping() -> None:
    limiter = LocalLimiter(concurrency=2, rpm=0)
    try:
        with limiter.slot():
            pass
        interrupts.request_stop(signal.SIGTERM)
        with pytest.raises(interrupts.Interrupted), limiter.slot():
            raise AssertionError("a call started after the stop")
        assert interrupts.exit_code() == 143
        assert limiter.in_flight == 0
    finally:
        interrupts.reset()
    for _ in range(3):  # both slots were given back (concurrency 2): three calls in a row still start
        with limiter.slot():
            pass


def test_corrupt_run_files_name_the_file(tmp_path: Path) -> None:
    (tmp_path / "state.json").write_text("{not json")
    with pytest.raises(InputError, match=r"state\.json: cannot read this run file"):
        state.read_state(tmp_path)
    (tmp_path / "state.json").write_bytes(b"\xff\xfe")
    with pytest.raises(InputError, match=r"state\.json"):
        state.read_state(tmp_path)
    (tmp_path / "state.json").write_text('{"stages": [1]}')
    with pytest.raises(InputError, match=r"state\.json: stages"):
        state.read_state(tmp_path)


def test_an_interrupted_stage_is_redone_and_the_run_says_so(tmp_path: Path) -> None:
    state.mark(tmp_path, "generate", "running")
    marked = state.mark_interrupted(tmp_path)
    assert marked["status"] == "interrupted" and marked["stages"] == {"generate": "interrupted"}
    assert not state.is_done(tmp_path, "generate")
    state.mark(tmp_path, "generate", "running")
    state.mark(tmp_path, "generate", "done")
    assert state.read_state(tmp_path)["status"] == "done"


def test_a_reentrant_lock_passes_through_only_inside_its_holder(tmp_path: Path) -> None:
    """The build flow takes the run's lock with ``reentrant=True``: inside the CLI's block that holds it,
    it goes through; anywhere else (a deployment run while another build holds it) it is refused."""
    with run_lock(tmp_path / "r", "r"):
        with run_lock(tmp_path / "r", "r", reentrant=True):
            pass
        with pytest.raises(FolderBusy):  # a plain nested lock is still a second writer
            run_lock(tmp_path / "r", "r").__enter__()
    with run_lock(tmp_path / "r", "r", reentrant=True), pytest.raises(FolderBusy):
        run_lock(tmp_path / "r", "r", reentrant=False).__enter__()
    holder = subprocess.Popen(
        [
            sys.executable,
            "-c",
            f"import time\nfrom ambiforge.run.lock import run_lock\n"
            f"with run_lock({str(tmp_path / 'q')!r}, 'q'):\n    print('held', flush=True)\n    time.sleep(60)\n",
        ],
        stdout=subprocess.PIPE,
        text=True,
        env={**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[3])},
    )
    try:
        assert holder.stdout is not None and holder.stdout.readline().strip() == "held"
        with pytest.raises(FolderBusy, match=f"pid {holder.pid} "), run_lock(tmp_path / "q", "q", reentrant=True):
            pass
    finally:
        holder.kill()
        holder.wait()


SLOW_FINISH = """
import os, signal, sys, threading, time
from ambiforge import api
from ambiforge.cli import build as cli_build
from ambiforge.config.build import BuildOptions

stopping_server = threading.Event()


class SlowServer:  # the temporary Prefect server: stopping it takes a while on a loaded machine
    def stop(self, grace: float) -> None:
        stopping_server.set()
        time.sleep(2.0)


class Session:
    server = SlowServer()


def build(*args, **kwargs):
    signalled = False
    while not stopping_server.is_set():  # like Prefect reporting states before it lets the interrupt through
        try:
            if not signalled:
                signalled = True
                os.kill(os.getpid(), signal.SIGTERM)
            time.sleep(0.05)
        except KeyboardInterrupt:
            pass
    raise KeyboardInterrupt  # while the grace timer is finishing


api.build = build
sys.exit(cli_build.run_build(BuildOptions(run_id="r", out=sys.argv[1], pairs=1), "annotation", Session()))
"""


def test_a_stop_finished_by_the_grace_timer_keeps_its_line_and_exit_code(tmp_path: Path) -> None:
    """The grace timer starts finishing (2 s after SIGTERM) while the main thread is held; when the main
    thread then gets its KeyboardInterrupt, it must wait for the timer's exit, not unwind and end the
    process first (which lost the line and exited 130 for a SIGTERM)."""
    (tmp_path / "r").mkdir()
    done = subprocess.run(
        [sys.executable, "-c", SLOW_FINISH, str(tmp_path)], capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 143, done.stderr
    assert done.stderr.strip().splitlines()[-1] == "ambiforge: interrupted; rerun with --run-id r to resume"
    assert json.loads((tmp_path / "r" / "state.json").read_text())["status"] == "interrupted"


def test_a_finish_runs_in_one_thread_and_the_main_thread_waits_for_it() -> None:
    import threading
    import time

    calls: list[str] = []
    finish = interrupts.once(lambda: calls.append(threading.current_thread().name), wait=0.3)
    first = threading.Thread(target=finish, name="timer")
    first.start()
    first.join()
    late = threading.Thread(target=finish, name="late")  # another thread coming second: nothing to do
    late.start()
    late.join()
    assert calls == ["timer"]
    started = time.monotonic()
    finish()  # the main thread coming second waits for the first finish to end the process ...
    assert time.monotonic() - started >= 0.3
    assert calls == ["timer", "MainThread"]  # ... and finishes itself when it did not
