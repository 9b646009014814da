"""The providers ambiforge knows, by name: the entry-point group ``ambiforge.providers`` (ambiforge's own in
its ``pyproject.toml``, a plugin's in its metadata), each naming a :class:`ProviderSpec`, plus those added
with :func:`register`. Kept with the configuration, which takes each provider's defaults from it, below the
LLM layer that makes the providers' clients (:mod:`ambiforge.llm.providers` re-exports it).

A provider's key variable is a secret from the moment the provider is known: the registry hands the key
variables to :mod:`ambiforge.redaction` (:func:`~ambiforge.redaction.register_source`), which sits below
the LLM layer and cannot ask.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from ambiforge import redaction
from ambiforge.errors import ConfigError
from ambiforge.registry import Registry, load_entry_point

if TYPE_CHECKING:
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


def _check(name: str, spec: ProviderSpec) -> None:
    if not isinstance(spec, ProviderSpec):
        raise ConfigError(f"LLM provider {name!r}: expected a ProviderSpec, got {type(spec).__name__}")
    if spec.name != name:
        raise ConfigError(f"LLM provider {name!r}: its ProviderSpec is named {spec.name!r}")


PROVIDERS: Registry[ProviderSpec] = Registry(
    "LLM provider", "ambiforge.providers", check=_check, order_key=lambda spec: spec.name, builtin=True
)


def _key_variables() -> set[str]:
    try:
        known = list(PROVIDERS.items().values())
    except ConfigError:  # a broken plugin is reported where providers are used; the others' keys stay secret
        known = []
        for ep in PROVIDERS.entry_points():
            try:
                known.append(load_entry_point(ep, PROVIDERS.kind))
            except ConfigError:
                continue
    return {name for name in (getattr(spec, "api_key_env", "") for spec in known) if name}


redaction.register_source(_key_variables)


def register(spec: ProviderSpec) -> ProviderSpec:
    return PROVIDERS.register(spec)


def specs() -> dict[str, ProviderSpec]:
    """Every provider by name, sorted by name."""
    return PROVIDERS.items()


def names() -> tuple[str, ...]:
    return PROVIDERS.names()


def get(name: str) -> ProviderSpec:
    return PROVIDERS.get(name)
