"""Errors a user can act on.

Every error that reaches the CLI says *where* (file, row, item, rule) in one line, so the CLI can print
``str(error)`` and exit without a traceback.
"""

from __future__ import annotations


class AmbiforgeError(Exception):
    """Base for errors caused by input or configuration, not by a bug."""

    exit_code = 2


class CatalogError(AmbiforgeError):
    """The object catalog is malformed; the message names file and entry."""

    def __init__(self, path: str, entry: str, message: str) -> None:
        self.path, self.entry, self.detail = path, entry, message
        super().__init__(f"{path}: {entry}: {message}")

    def __reduce__(self) -> tuple[type[CatalogError], tuple[str, str, str]]:  # from a worker process whole
        return (type(self), (self.path, self.entry, self.detail))


class InputError(AmbiforgeError):
    """An input file (items, CSV, export) cannot be read; the message names file and row."""

    def __init__(self, path: str, where: str, message: str) -> None:
        self.path, self.where, self.detail = path, where, message
        super().__init__(f"{path}: {where}: {message}" if where else f"{path}: {message}")

    def __reduce__(self) -> tuple[type[InputError], tuple[str, str, str]]:  # from a worker process whole
        return (type(self), (self.path, self.where, self.detail))


class ConfigError(AmbiforgeError):
    """Configuration (ambiforge.toml, CLI options, environment) is invalid or incomplete."""


class GenerationError(AmbiforgeError):
    """The generator could not produce an item; carries the item index for the summary."""

    exit_code = 1


class LLMError(GenerationError):
    """An LLM step gave up on a pair; ``stage`` names what failed, so rejected.jsonl and the summary can
    count failures by cause."""

    stage = "llm"


class LLMCallError(LLMError):
    """A call failed after its retries (HTTP error, timeout) or was refused (401, 400)."""

    stage = "llm_call"


class LLMOutputError(LLMError):
    """The model's replies did not parse or validate against the step's schema, repairs included."""

    stage = "llm_output"


class BudgetExceeded(LLMError):
    """``--max-cost`` was reached: no new paid call starts."""

    stage = "budget"


class PluginError(AmbiforgeError):
    """A plugin's rule, stage, eval method or provider raised or returned the wrong thing: the command stops
    with one line naming the plugin, its package and the item (docs/extending.md, "When a plugin fails")."""

    exit_code = 1

    def __init__(self, plugin: str, item: str, error: str) -> None:
        self.plugin, self.item, self.error = plugin, item, error
        super().__init__(f"plugin {plugin} failed on {item}: {error}")

    def __reduce__(self) -> tuple[type[PluginError], tuple[str, str, str]]:  # crosses process pools whole
        return (PluginError, (self.plugin, self.item, self.error))


def plugin_failure(plugin: str, item: str, exc: BaseException) -> PluginError:
    """The PluginError for an exception a plugin raised: its type and the first line of its message."""
    lines = str(exc).splitlines()
    text = lines[0][:300] if lines else ""
    return PluginError(plugin, item, f"{type(exc).__name__}: {text}" if text else type(exc).__name__)
