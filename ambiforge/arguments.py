"""Checks of a public function's arguments: a caller of the Python API who passes None, a dict for an
options object or a string for a list gets a ``TypeError`` naming the parameter at the call, instead of an
``AttributeError`` deep inside the run (or a string iterated as a list: ``runs='env'`` was three runs).

Values of the right type that are wrong (an empty name, a negative size) are ``ConfigError``, as the
CLI's own checks are.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any, TypeVar

from ambiforge.errors import ConfigError

T = TypeVar("T")


def _got(value: object) -> str:
    return "None" if value is None else f"{type(value).__name__} {value!r}"[:80]


def wrong(name: str, expected: str, value: object) -> TypeError:
    """``runs: expected a list of run ids, got str 'env'``."""
    return TypeError(f"{name}: expected {expected}, got {_got(value)}")


def path(name: str, value: object) -> Path:
    """A file or folder given as ``str`` or ``os.PathLike``; an empty string is no path."""
    if isinstance(value, str | os.PathLike) and not isinstance(value, bytes):
        text = os.fspath(value)
        if isinstance(text, str):
            if not text.strip():
                raise ConfigError(f"{name}: empty; give a path")
            return Path(text)
    raise wrong(name, "a path (str or os.PathLike)", value)


def optional_path(name: str, value: object) -> Path | None:
    return None if value is None else path(name, value)


def text(name: str, value: object, *, empty: bool = False) -> str:
    if not isinstance(value, str):
        raise wrong(name, "a string", value)
    if not empty and not value.strip():
        raise ConfigError(f"{name}: empty; give a value")
    return value


def optional_text(name: str, value: object) -> str | None:
    return None if value is None else text(name, value)


def flag(name: str, value: object) -> bool:
    if not isinstance(value, bool):
        raise wrong(name, "True or False", value)
    return value


def integer(name: str, value: object) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise wrong(name, "an integer", value)
    return value


def optional_integer(name: str, value: object) -> int | None:
    return None if value is None else integer(name, value)


def number(name: str, value: object) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise wrong(name, "a number", value)
    return float(value)


def optional_number(name: str, value: object) -> float | None:
    return None if value is None else number(name, value)


def texts(name: str, value: object) -> list[str]:
    """A list (or tuple) of strings; one string is refused, not read as its characters."""
    if isinstance(value, str | bytes) or not isinstance(value, list | tuple):
        raise wrong(name, "a list of strings", value)
    for index, entry in enumerate(value):
        if not isinstance(entry, str):
            raise wrong(f"{name}[{index}]", "a string", entry)
    return list(value)


def instance(name: str, value: object, cls: type[T], what: str) -> T:
    """``value`` if it is a ``cls`` (``what`` names how to make one in the message)."""
    if not isinstance(value, cls):
        raise wrong(name, what, value)
    return value


def mapping(name: str, value: object, what: str) -> Mapping[Any, Any]:
    """A dict (or any mapping) where a table of values is wanted."""
    if not isinstance(value, Mapping):
        raise wrong(name, what, value)
    return value


def optional_callable(name: str, value: object) -> Callable[..., Any] | None:
    if value is not None and not callable(value):
        raise wrong(name, "a function", value)
    return value
