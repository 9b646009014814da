"""Prefect flows: orchestration only. Each stage's logic lives in ``ambiforge/``; a flow wires the engine's
steps into tasks with names that read well in the Prefect UI, and :mod:`flows.orchestrator` is how the
library reaches them (entry point ``ambiforge.orchestrators: prefect``).

Every flow process (the CLI, ``serve``'s deployment runs, a Dask worker) redacts keys from its logs and
from the messages of failed runs Prefect stores, however it was started: importing this package installs
the hooks. Prefect's own hook (:func:`install_prefect`) is installed when Prefect is first imported, not
here, so that it wraps ``format_exception`` before any Prefect module binds it.
"""

from __future__ import annotations

import importlib.abc
import importlib.machinery
import importlib.util
import sys
import threading
from types import TracebackType
from typing import Any

from ambiforge.redaction import install, redact

_lock = threading.Lock()
_installed = False


def install_prefect() -> None:
    """Failed and Crashed states take their message from ``prefect.states.format_exception`` (bound in
    ``prefect.states`` and ``prefect._internal.states``): wrap it, so no state message stored by the API
    carries a secret. Idempotent."""
    global _installed
    with _lock:
        if _installed:
            return
        _installed = True
    import prefect.states
    from prefect._internal import states as internal_states

    original = prefect.states.format_exception

    def format_exception(exc: BaseException, tb: TracebackType | None = None) -> str:
        return redact(original(exc, tb))

    for module in (prefect.states, internal_states):
        if getattr(module, "format_exception", None) is original:
            module.format_exception = format_exception  # type: ignore[assignment]


class _AfterImport(importlib.abc.MetaPathFinder):
    """Runs :func:`install_prefect` right after ``prefect.states`` is executed, before any module binds
    its ``format_exception`` (``prefect._internal.states`` imports it from there)."""

    def find_spec(self, name: str, path: Any, target: Any = None) -> importlib.machinery.ModuleSpec | None:
        if name != "prefect.states":
            return None
        sys.meta_path.remove(self)
        spec = importlib.util.find_spec(name)
        if spec is None or spec.loader is None:
            return spec
        loader = spec.loader
        run = loader.exec_module

        def exec_module(module: Any) -> None:
            run(module)
            install_prefect()

        loader.exec_module = exec_module  # type: ignore[method-assign]
        return spec


def install_prefect_on_import() -> None:
    """:func:`install_prefect` now if Prefect is loaded, else as soon as it is."""
    if "prefect.states" in sys.modules:
        install_prefect()
    elif not any(isinstance(f, _AfterImport) for f in sys.meta_path):
        sys.meta_path.insert(0, _AfterImport())


install()
install_prefect_on_import()
