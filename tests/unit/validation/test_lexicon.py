"""The lexicon's scan cache: bounded, least recently used first out, and never changing what a scan finds."""

from __future__ import annotations

import pytest

from ambiforge.catalog import cached_catalog
from ambiforge.validation import lexicon
from ambiforge.validation.lexicon import Lexicon, lexicon_for


@pytest.fixture
def fresh() -> Lexicon:
    built = lexicon_for(cached_catalog(""))
    return Lexicon(built.entries, built.heads)


def test_scan_keeps_at_most_scan_texts_and_drops_the_least_recently_used(
    fresh: Lexicon, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(lexicon, "SCAN_TEXTS", 3)
    fresh.scan("bring the red apple")
    fresh.scan("wash the bowl")
    fresh.scan("bring the red apple")  # used again: now the most recent
    fresh.scan("open the fridge")
    fresh.scan("cut two onions")  # the cache is full: the least recently used goes ("wash the bowl")
    assert list(fresh.cache) == ["bring the red apple", "open the fridge", "cut two onions"]
    for n in range(50):
        fresh.scan(f"put {n} spoons in the drawer")
    assert len(fresh.cache) == 3


def test_a_scan_is_the_same_whether_cached_evicted_or_new(fresh: Lexicon, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(lexicon, "SCAN_TEXTS", 2)
    text = "Put the chicken breasts and the oatmeal cookies in the glass bowl"
    first = fresh.scan(text)
    assert [m.name for m in first[1]] and first[0][2] == "chicken"
    for other in ("rinse the cup", "dry the plate", "heat the pan"):
        fresh.scan(other)
    assert text not in fresh.cache
    unbounded = Lexicon(fresh.entries, fresh.heads)
    assert fresh.scan(text) == first == unbounded.scan(text)
