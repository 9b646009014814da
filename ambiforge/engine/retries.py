"""Retry policy for tasks: retry what may pass on a second try (a dropped connection, a timeout, a busy
disk), never what will fail the same way again (bad input, a rule, a bug)."""

from __future__ import annotations

from typing import Any

from ambiforge.errors import AmbiforgeError

TRANSIENT: tuple[type[BaseException], ...] = (ConnectionError, TimeoutError, OSError)


def is_transient(exc: BaseException) -> bool:
    if isinstance(exc, AmbiforgeError):
        return False
    if isinstance(exc, TRANSIENT):
        return True
    try:  # HTTP clients raise their own connection/timeout errors (httpx is used by both LLM SDKs)
        import httpx

        return isinstance(exc, httpx.TransportError)
    except ImportError:  # pragma: no cover - httpx is a dependency
        return False


def retry_transient(task: Any, task_run: Any, state: Any) -> bool:
    """Prefect ``retry_condition_fn``: retry only when the task failed on a transient error."""
    try:
        state.result()
    except BaseException as exc:  # noqa: BLE001 - we inspect, not swallow: the state stays failed
        return is_transient(exc)
    return False
