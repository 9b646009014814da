"""``--max-cost``: stop starting paid calls once the run has spent its budget.

The spend is read from the run's call log rather than counted in memory, so every process that appends to
it (threads, Dask workers, the run before a restart) counts. The log is read incrementally from the last
offset, so a check costs only the lines written since the previous one. Calls already in flight when the
budget is reached still finish and are recorded: the overshoot is at most ``concurrency`` calls.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from ambiforge.errors import BudgetExceeded
from ambiforge.llm.limiter import Limiter


class Budget:
    def __init__(self, log_path: Path, max_cost: float | None) -> None:
        self.log_path, self.max_cost = log_path, max_cost
        self._offset = 0
        self._spent = 0.0
        self._lock = threading.Lock()

    def spent(self) -> float:
        with self._lock:
            if not self.log_path.exists():
                return self._spent
            with self.log_path.open("rb") as fh:
                fh.seek(self._offset)
                data = fh.read()
            end = data.rfind(b"\n") + 1  # a line still being written is read next time
            for line in data[:end].splitlines():
                try:
                    record = json.loads(line)
                except json.JSONDecodeError:
                    continue
                if not record.get("cached"):
                    self._spent += float(record.get("cost_usd") or 0.0)
            self._offset += end
            return self._spent

    def check(self) -> None:
        if self.max_cost is None:
            return
        spent = self.spent()
        if spent >= self.max_cost:
            raise BudgetExceeded(f"budget of ${self.max_cost:.4f} reached (spent ${spent:.4f}); no new calls")


class BudgetedLimiter:
    """A limiter that checks the budget again once a call has its slot.

    Many pairs' calls wait at the limiter (see :func:`ambiforge.generation.scheduling.generate_batch`); the
    client checks the budget before they wait, so without this every waiting call would start after the
    budget was reached. Checked after the slot, the overshoot stays the calls in flight at that moment."""

    def __init__(self, limiter: Limiter, budget: Budget) -> None:
        self.limiter, self.budget = limiter, budget

    @contextmanager
    def slot(self) -> Iterator[None]:
        with self.limiter.slot():
            self.budget.check()
            yield
