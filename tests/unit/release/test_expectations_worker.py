"""The release's expectations give the same results in a worker process as in the release's own, for the
ambiguity types the release knows (a type registered from a folder included)."""

from __future__ import annotations

import shutil
from pathlib import Path

from ambiforge import ambiguity
from ambiforge.releases.expectations_worker import Expectations
from ambiforge.validation.expectations import ItemColumns
from tests.unit.release.test_release import make_items


def test_the_worker_process_judges_as_the_release_process(tmp_path: Path, catalog) -> None:  # type: ignore[no-untyped-def]
    folder = tmp_path / "wrong_tool"
    shutil.copytree(ambiguity.get("safety").folder, folder)
    (folder / "definition.yaml").write_text(
        (folder / "definition.yaml").read_text().replace("name: safety", "name: wrong_tool")
    )
    items = make_items(catalog, 5, 12, "r")
    ids = [i.id for i in items]
    duplicated = [*items, items[0]]  # a duplicate id: an expectation fails
    ambiguity.register_folder(folder)
    try:
        mix = {"preferences": 0.5, "common_sense_knowledge": 0.3, "safety": 0.1, "wrong_tool": 0.1}
        kwargs = {"target_mix": mix, "tolerance": 0.05, "splits": {"calibration": ids[:2], "test": ids[2:]}}
        with Expectations([], worker=False) as here:
            want = here.run(ItemColumns().add_all(duplicated), **kwargs)  # type: ignore[arg-type]
        with Expectations([], worker=True) as there:
            assert there.worker is not None
            got = there.run(ItemColumns().add_all(duplicated), **kwargs)  # type: ignore[arg-type]
            assert there.worker is None  # its only call: the worker is reaped
    finally:
        ambiguity.unregister("wrong_tool")
    assert not want.success and any(r["column"] == "is_wrong_tool" for r in want.results)
    assert got.to_dict() == want.to_dict()
