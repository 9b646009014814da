"""The preconditions table: the packaged one loads, and a mistake is one error naming the file and key."""

from __future__ import annotations

from pathlib import Path

import pytest

from ambiforge.catalog.preconditions import load_preconditions
from ambiforge.errors import CatalogError


def test_the_packaged_table_names_known_affordances() -> None:
    table = load_preconditions()
    assert table.tool_verbs["cut"] == "slice" and table.tool_verbs["peel"] == "peel"
    assert "bananas" in table.by_hand["peel"]


@pytest.mark.parametrize(
    ("text", "where"),
    [
        (
            "version: '1'\ntool_verbs: {cut: carve}\npour_verbs: [pour]\nholders: {tags: [cup]}\nheaters: [oven]\n"
            "heat_words: [hot]\n",
            "tool_verbs.cut",
        ),
        (
            "version: '1'\ntool_verbs: {cut: slice}\npour_verbs: [pour]\nholders: {tags: [cup]}\nheaters: [oven]\n"
            "heat_words: [hot]\nfreezers: [x]\n",
            "freezers",
        ),
        (
            "version: '1'\ntool_verbs: {cut: slice}\nby_hand: {tear: [breads]}\npour_verbs: [pour]\n"
            "holders: {tags: [cup]}\nheaters: [oven]\nheat_words: [hot]\n",
            "by_hand.tear",
        ),
    ],
)
def test_a_mistake_names_the_file_and_key(tmp_path: Path, text: str, where: str) -> None:
    path = tmp_path / "preconditions.yaml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(CatalogError) as err:
        load_preconditions(path)
    assert str(path) in str(err.value) and where in str(err.value)
