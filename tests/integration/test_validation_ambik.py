"""The validation rules on published AmbiK rows (../shared/data/ambik_dev_400.csv, read where it is published,
never copied) against the hand labels in bench/labels/: every flag judged right is still raised, none judged
wrong is, and the rows read in full and found clean get no error. Skipped where the shared data is absent."""

from __future__ import annotations

import csv
from pathlib import Path

import pytest

from ambiforge.ambik import read_ambik_csv
from ambiforge.validation import RuleContext, validate_items
from tests.conftest import REPO

_CANDIDATES = [R / "shared" / "data" / "ambik_dev_400.csv" for R in (REPO.parent, REPO.parent.parent)]
DEV = next((p for p in _CANDIDATES if p.is_file()), _CANDIDATES[0])
LABELS = REPO / "bench" / "labels"

pytestmark = pytest.mark.skipif(not DEV.is_file(), reason=f"{DEV} (published AmbiK rows) is not here")


def _labels(name: str) -> list[dict[str, str]]:
    with (LABELS / name).open(encoding="utf-8") as fh:
        return [r for r in csv.DictReader(line for line in fh if not line.startswith("#")) if r["set"] == "dev"]


def _evidence(message: str) -> str:
    import re

    m = re.search(r"'([^']*)'", message)
    return m.group(1) if m else message.split(":")[0].split("[")[0]


@pytest.fixture(scope="module")
def flags(catalog) -> dict[str, list[tuple[str, str, str]]]:  # type: ignore[no-untyped-def]
    items = validate_items(read_ambik_csv(Path(DEV), catalog), RuleContext(catalog=catalog))
    return {i.id: [(f.rule, f.severity, f.message) for f in i.validation.failed] for i in items}  # type: ignore[union-attr]


#: Error rules whose uncertain findings are now their warning twin: a flag judged right is kept when raised
#: as either (the row does not show that the defect is the pair's rather than the user_intent string's).
_SUSPECT = {"intent": "intent_suspect"}


def test_labelled_flags_keep_their_verdict(flags) -> None:  # type: ignore[no-untyped-def]
    raised = {(i, rule, _evidence(m)) for i, found in flags.items() for rule, sev, m in found if sev == "error"}
    suspected = {
        (i, rule, _evidence(m)) for i, found in flags.items() for rule, sev, m in found if rule in _SUSPECT.values()
    }
    labels = _labels("ambik_flags.csv")
    lost = [(r["id"], r["rule"], r["evidence"]) for r in labels if r["label"] == "right"]
    lost = [k for k in lost if k not in raised and (k[0], _SUSPECT.get(k[1]), k[2]) not in suspected]
    back = [(r["id"], r["rule"], r["evidence"]) for r in labels if r["label"] == "wrong"]
    back = [k for k in back if k in raised]
    assert not lost, f"right flags no longer raised: {lost[:10]}"
    assert not back, f"flags judged wrong raised again: {back}"


def test_clean_rows_get_no_error(flags) -> None:  # type: ignore[no-untyped-def]
    clean = [r["id"] for r in _labels("ambik_defects.csv") if r["defect"] == "clean"]
    assert clean
    assert {i: [m for _, s, m in flags[i] if s == "error"] for i in clean} == {i: [] for i in clean}
