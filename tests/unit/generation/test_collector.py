"""The cycle collector runs less often while pairs are made, and is put back as it was afterwards."""

from __future__ import annotations

import gc
import threading

import pytest

from ambiforge.generation.collector import YOUNG, fewer_collections


@pytest.fixture(autouse=True)
def _thresholds():  # type: ignore[no-untyped-def]
    saved = gc.get_threshold()
    yield
    gc.set_threshold(*saved)


def test_raised_inside_and_put_back_after_even_on_error() -> None:
    gc.set_threshold(700, 10, 10)
    with fewer_collections():
        assert gc.get_threshold() == (YOUNG, 10, 10)
        with fewer_collections():  # re-entrant: the inner exit does not put it back early
            pass
        assert gc.get_threshold() == (YOUNG, 10, 10)
    assert gc.get_threshold() == (700, 10, 10)
    with pytest.raises(RuntimeError), fewer_collections():
        raise RuntimeError("a pair failed")
    assert gc.get_threshold() == (700, 10, 10)


def test_collection_switched_off_stays_off_and_a_higher_threshold_stays() -> None:
    gc.set_threshold(0, 10, 10)
    with fewer_collections():
        assert gc.get_threshold() == (0, 10, 10)
    gc.set_threshold(YOUNG * 2, 5, 5)
    with fewer_collections():
        assert gc.get_threshold() == (YOUNG * 2, 5, 5)
    assert gc.get_threshold() == (YOUNG * 2, 5, 5)


def test_threads_overlapping_leave_the_thresholds_as_they_were() -> None:
    gc.set_threshold(700, 10, 10)
    inside = threading.Barrier(4)
    seen: list[tuple[int, int, int]] = []

    def batch() -> None:
        with fewer_collections():
            inside.wait()
            seen.append(gc.get_threshold())

    threads = [threading.Thread(target=batch) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert seen == [(YOUNG, 10, 10)] * 4
    assert gc.get_threshold() == (700, 10, 10)


def test_what_lives_before_is_frozen_inside_and_thawed_after_unless_frozen_by_the_process() -> None:
    """Counts are compared with zero only: other threads of the process (servers in the suite) free frozen
    objects at any time, which lowers the count by a few."""
    gc.set_threshold(700, 10, 10)
    assert gc.get_freeze_count() == 0
    with fewer_collections():
        assert gc.get_freeze_count() > 0  # a full pass inside walks only what the batch made
        with fewer_collections():
            pass
        assert gc.get_freeze_count() > 0  # the inner exit does not thaw early
    assert gc.get_freeze_count() == 0
    gc.freeze()  # the process froze its own objects (a prefork server does): left as they are
    try:
        with fewer_collections():
            assert gc.get_freeze_count() > 0
        assert gc.get_freeze_count() > 0  # not thawed on the way out
    finally:
        gc.unfreeze()
