"""Fewer passes of Python's cycle collector while pairs are made.

Making a pair allocates tens of thousands of short-lived objects (scene graphs, actions, drafts), none of
them in reference cycles, and the run keeps every finished item until it is written. With the default
thresholds the collector runs a young pass every 700 allocations and, every few hundred pairs, a full pass
over every item made so far: 14% of the offline generator's time at 1k pairs (measured with
``gc.callbacks``; docs/performance.md). While a batch is generated the young threshold is raised, so the
collector still runs (cycles are still freed) but a few hundred times less often; the thresholds are put
back when the last batch in flight ends, and a threshold of 0 (collection off) is left alone.

The objects alive when the first batch starts (modules, the catalog, items of earlier batches) are also
frozen (``gc.freeze``) for the duration: an occasional full pass then walks only what the batch made,
not the whole heap (one such pass cost a tenth of a 1k-pair build). Freezing and thawing are O(1)
(CPython splices lists); a process that froze objects itself is left alone.
"""

from __future__ import annotations

import gc
import threading
from collections.abc import Iterator
from contextlib import contextmanager

#: The young-generation threshold while generating (default 700).
YOUNG = 20_000

_lock = threading.Lock()
_depth = 0
_saved: tuple[int, int, int] | None = None
_froze = False


@contextmanager
def fewer_collections() -> Iterator[None]:
    """Raise the collector's young threshold for the duration (re-entrant, and safe across threads: the
    first to enter raises it, the last to leave puts the saved thresholds back)."""
    global _depth, _saved, _froze
    with _lock:
        if _depth == 0:
            _saved = gc.get_threshold()
            if _saved[0]:
                gc.set_threshold(max(YOUNG, _saved[0]), *_saved[1:])
                _froze = gc.get_freeze_count() == 0
                if _froze:
                    gc.freeze()
        _depth += 1
    try:
        yield
    finally:
        with _lock:
            _depth -= 1
            if _depth == 0 and _saved is not None:
                gc.set_threshold(*_saved)
                _saved = None
                if _froze:
                    gc.unfreeze()
                    _froze = False
