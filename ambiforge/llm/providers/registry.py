"""The providers ambiforge knows, by name. A provider is one module in this package that defines
``PROVIDER = ProviderSpec(...)``: the package's modules are discovered, nothing else lists them. A provider
living outside the package is added with :func:`register`.
"""

from __future__ import annotations

import importlib
import pkgutil
import threading
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from ambiforge.errors import ConfigError

if TYPE_CHECKING:
    from ambiforge.config.llm import LLMConfig
    from ambiforge.llm.providers.base import Provider


@dataclass(frozen=True)
class ProviderSpec:
    """A provider's name, where its key and endpoint come from, its default model, and how to make its
    client from ``(api_key, base_url or None, timeout seconds)``."""

    name: str
    api_key_env: str
    base_url_env: str
    default_model: str
    factory: Callable[[str, str | None, float], Provider]


_SPECS: dict[str, ProviderSpec] = {}
_LOCK = threading.Lock()
_LOADED = False


def register(spec: ProviderSpec) -> ProviderSpec:
    with _LOCK:
        _SPECS[spec.name] = spec
    return spec


def _load_builtins() -> None:
    global _LOADED
    if _LOADED:
        return
    import ambiforge.llm.providers as package

    for module in pkgutil.iter_modules(package.__path__):
        if module.name in ("base", "registry"):
            continue
        spec = getattr(importlib.import_module(f"{package.__name__}.{module.name}"), "PROVIDER", None)
        if isinstance(spec, ProviderSpec):
            _SPECS.setdefault(spec.name, spec)
    _LOADED = True


def specs() -> dict[str, ProviderSpec]:
    with _LOCK:
        _load_builtins()
        return dict(sorted(_SPECS.items()))


def names() -> tuple[str, ...]:
    return tuple(specs())


def get(name: str) -> ProviderSpec:
    known = specs()
    if name not in known:
        raise ConfigError(f"unknown LLM provider {name!r} (known: {', '.join(known)})")
    return known[name]


def make_provider(name: str, llm: LLMConfig) -> Provider:
    """The provider ``name`` with its key from the environment (checked again here: a Dask worker may
    have a different environment than the machine that started the build)."""
    if name not in llm.providers:
        raise ConfigError(f"provider {name!r} is not configured in [llm.providers]")
    settings = llm.providers[name]
    key = settings.api_key()
    if key is None:
        raise ConfigError(f"{settings.api_key_env} is not set (provider {name})")
    from ambiforge.config.llm import key_problem

    if problem := key_problem(key):  # an HTTP header cannot carry it; the SDK error would quote it
        raise ConfigError(f"{settings.api_key_env}: {problem} (the value is not shown)")
    kind = settings.kind or name
    return get(kind).factory(key, settings.endpoint(), llm.timeout_seconds)
