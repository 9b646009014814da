"""A write the machine refuses (full disk, read-only or vanished folder) is one line naming where, exit 1."""

from __future__ import annotations

import errno
from pathlib import Path

import pytest

from ambiforge.cli.main import main, os_error_text


def test_an_atomic_writes_temporary_file_is_shown_as_its_folder() -> None:
    exc = OSError(errno.ENOSPC, "No space left on device", "/data/out/.items.jsonl.abcd1234.tmp")
    assert os_error_text(exc) == "cannot write in /data/out: No space left on device"
    read_only = OSError(errno.EROFS, "Read-only file system", "/ro/x.csv")
    assert os_error_text(read_only) == "/ro/x.csv: Read-only file system"


def test_an_unwritable_output_is_one_line_exit_1(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    items = tmp_path / "items.jsonl"
    items.write_text("")
    code = main(["export-ambik", str(items), "--out", "/proc/ambiforge-test/x.csv"])
    err = capsys.readouterr().err.strip().splitlines()
    assert code == 1 and len(err) == 1 and err[0].startswith("ambiforge: error: ") and "/proc" in err[0]


def test_ctrl_c_in_any_command_is_one_line_exit_130(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Typer turns a KeyboardInterrupt inside a command into a silent 130; the user still gets a line."""
    from ambiforge import api

    def interrupted(*args: object, **kwargs: object) -> int:
        raise KeyboardInterrupt

    monkeypatch.setattr(api, "export_ambik", interrupted)
    items = tmp_path / "items.jsonl"
    items.write_text("")
    code = main(["export-ambik", str(items), "--out", str(tmp_path / "x.csv")])
    assert code == 130 and capsys.readouterr().err.strip().splitlines() == ["ambiforge: interrupted"]
    assert not (tmp_path / "x.csv").exists()
