"""What people expect of a command line: --version, shell completion, a word when --type-mix is rescaled,
and lines that are not wrapped when the output is not a terminal."""

from __future__ import annotations

import os
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

from ambiforge.cli.main import main
from ambiforge.version import __version__

REPO = Path(__file__).resolve().parents[3]


def test_version(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--version"]) == 0
    assert capsys.readouterr().out == f"ambiforge {__version__}\n"


def test_shell_completion_script_names_the_program() -> None:
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    # --show-completion is a flag: the shell is the parent process's (shellingham), so run it from bash (a
    # trailing command keeps bash the parent instead of exec-ing the program)
    command = f"{shlex.quote(sys.executable)} -m ambiforge.cli.main --show-completion; status=$?; exit $status"
    done = subprocess.run(["bash", "-c", command], env=env, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert "_AMBIFORGE_COMPLETE=complete_bash" in done.stdout and "complete -o default -F" in done.stdout


def test_a_mix_that_does_not_sum_to_one_is_rescaled_with_a_warning(capsys: pytest.CaptureFixture[str]) -> None:
    from ambiforge.cli.build import parse_mix

    shares = parse_mix("preferences=2,safety=2")
    assert shares["preferences"] == shares["safety"] == 0.5
    err = capsys.readouterr().err
    assert "--type-mix shares add up to 4, not 1; rescaled: preferences=2 -> 0.500, safety=2 -> 0.500" in err
    parse_mix("preferences=0.5,safety=0.5")
    assert capsys.readouterr().err == ""


def test_a_long_line_is_not_wrapped_when_stderr_is_a_pipe() -> None:
    script = (
        "from ambiforge.cli.common import console\n"
        "console.print('verify with ambiforge verify curated/1.0.0 --manifest-sha256 ' + 'a' * 64)\n"
    )
    env = {**os.environ, "PYTHONPATH": str(REPO), "COLUMNS": "80"}
    done = subprocess.run([sys.executable, "-c", script], env=env, capture_output=True, text=True, timeout=120)
    assert done.stderr == "verify with ambiforge verify curated/1.0.0 --manifest-sha256 " + "a" * 64 + "\n"
