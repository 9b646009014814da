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
        self.path, self.entry = path, entry
        super().__init__(f"{path}: {entry}: {message}")


class InputError(AmbiforgeError):
    """An input file (items, CSV, export) cannot be read; the message names file and row."""

    def __init__(self, path: str, where: str, message: str) -> None:
        self.path, self.where, self.detail = path, where, message
        super().__init__(f"{path}: {where}: {message}" if where else f"{path}: {message}")


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
