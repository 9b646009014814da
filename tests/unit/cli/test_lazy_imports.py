"""Commands that need no orchestration start in a fraction of a second: `ambiforge --help`, `schema` and
the error path of `build` import neither Prefect, Great Expectations nor an LLM SDK."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from tests.conftest import REPO

HEAVY = ("prefect", "great_expectations", "openai", "mistralai", "dask", "matplotlib")

SCRIPT = """
import contextlib, io, json, sys
from ambiforge.cli.main import main
with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
    code = main(sys.argv[1:])
print(json.dumps({"code": code, "loaded": sorted({m.split(".")[0] for m in sys.modules})}))
"""


@pytest.mark.parametrize(
    ("argv", "code"),
    [(["--help"], 0), (["schema"], 0), (["build", "--pairs", "0"], 2), (["build", "--help"], 0)],
)
def test_light_commands_do_not_import_heavy_packages(argv: list[str], code: int) -> None:
    proc = subprocess.run([sys.executable, "-c", SCRIPT, *argv], cwd=REPO, capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    result = json.loads(proc.stdout.splitlines()[-1])
    assert result["code"] == code
    assert not set(HEAVY) & set(result["loaded"]), sorted(set(HEAVY) & set(result["loaded"]))
