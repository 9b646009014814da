"""YAML through libyaml only when the text is shallow: a hostile file nested tens of thousands deep crashes
libyaml's recursive parser (a segmentation fault), so it goes to the Python parser, whose RecursionError the
loaders turn into a one-line "nested too deeply"."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from ambiforge import yamlfile


def test_the_packaged_files_are_shallow_and_read_the_same_by_both_parsers() -> None:
    root = Path(yamlfile.__file__).parent
    for path in sorted(root.rglob("*.yaml")):
        text = path.read_text(encoding="utf-8")
        assert yamlfile.nesting_bound(text) <= yamlfile.FAST_DEPTH, path
        assert yamlfile.load(text) == yaml.load(text, Loader=yaml.SafeLoader), path  # noqa: S506


@pytest.mark.parametrize("text", ["a: " + "[" * 60_000 + "]" * 60_000, "a:\n  " + "- " * 60_000 + "x\n"])
def test_deep_nesting_is_a_recursion_error_not_a_crash(text: str) -> None:
    assert yamlfile.nesting_bound(text) > yamlfile.FAST_DEPTH
    with pytest.raises(RecursionError):
        yamlfile.load(text)


def test_the_bound_never_underestimates() -> None:
    assert yamlfile.nesting_bound("a: [1, [2, {b: [3]}]]") >= 4
    assert yamlfile.nesting_bound("- - - x") >= 3
    assert yamlfile.nesting_bound("a:\n  b:\n    c: 1\n") >= 3
    assert yamlfile.nesting_bound("text: 'a [ in quotes'") >= 1  # counted anyway: the bound only errs high
