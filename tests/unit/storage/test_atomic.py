"""Atomic writes: the file appears whole or not at all, with the mode the user's umask gives."""

from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest

from ambiforge.atomic import write_text_atomic


def test_the_written_file_has_the_umasks_mode_and_the_umask_is_left_alone(tmp_path: Path) -> None:
    previous = os.umask(0o027)
    try:
        write_text_atomic(tmp_path / "a.txt", "x")
        assert os.umask(0o027) == 0o027  # reading it did not change it
    finally:
        os.umask(previous)
    assert stat.S_IMODE((tmp_path / "a.txt").stat().st_mode) == 0o640
    assert (tmp_path / "a.txt").read_text() == "x"


def test_a_failed_write_leaves_the_old_file_and_no_temporary(tmp_path: Path) -> None:
    from ambiforge.atomic import write_atomic

    target = tmp_path / "b.txt"
    target.write_text("old")

    def failing(fh: object) -> None:
        raise RuntimeError("disk said no")

    with pytest.raises(RuntimeError):
        write_atomic(target, failing)  # type: ignore[arg-type]
    assert target.read_text() == "old" and [p.name for p in tmp_path.iterdir()] == ["b.txt"]
