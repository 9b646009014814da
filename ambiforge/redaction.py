"""Secrets never leave the process in text: API keys and ``Authorization`` headers are replaced by
``[REDACTED]`` in every log record, in the one-line errors and tracebacks the CLI prints, and in the
messages of failed Prefect task and flow runs (which Prefect stores in ``$PREFECT_HOME``'s database).

Which values are secret is read, not listed: the layers that own a secret register the variable that holds
it (:func:`register_env`, :func:`register_source`): the LLM providers' registry its providers' key variables,
every ``[llm.providers.*]`` section a configuration names, and Label Studio's client module its key
(:data:`ambiforge.review.env.API_KEY_ENV`). This module sits below all of them and imports none. Values are
read from the environment when text is redacted,
so a key set after start-up is covered too. A key with a character an HTTP header cannot carry is refused
before any request (:func:`ambiforge.config.llm.key_problem`); this is the second line: an SDK or HTTP
library that quotes a header in an error (h11 does: ``Illegal header value b'Bearer ...'``) must not carry
it into a log, a file or Prefect's database.

Two hooks, installed once per process (the third, on Prefect's ``format_exception``, which makes the
message of every Failed and Crashed state from an exception, is the Prefect package's: ``flows``
installs it with :func:`redact`):

- a log record factory (:func:`install_logging`): every record of every logger is redacted when it is
  made, message, arguments and exception text, so every handler, including those Prefect adds later
  (console, and the API handler that ships logs into its database), only ever sees redacted text;
- ``sys.excepthook`` and ``threading.excepthook``: a traceback of a bug is printed redacted.
"""

from __future__ import annotations

import functools
import json
import logging
import os
import re
import sys
import threading
import traceback
from collections.abc import Callable, Iterable
from types import TracebackType
from typing import Any

MASK = "[REDACTED]"
#: Shorter values are not redacted: a one-letter "key" would blank every such letter in every message.
MIN_SECRET = 6

_HEADER = re.compile(
    r"(?i)(authorization['\"]?\s*[:=,]\s*(?:b?['\"])?)[^'\"\r\n,)]+"  # Authorization: <anything>
    r"|\b(bearer\s+)[^\s'\",;)]+"  # Bearer <token>
    r"|\b(Token\s+)[A-Za-z0-9][^\s'\",;)]{11,}"  # Label Studio's "Token <key>" (a long word only)
)
_extra_envs: set[str] = set()
_sources: list[Callable[[], Iterable[str]]] = []
_lock = threading.Lock()


def register_env(name: str) -> None:
    """Treat the value of environment variable ``name`` as a secret (a configured provider's key)."""
    if name:
        with _lock:
            _extra_envs.add(name)


def register_source(names: Callable[[], Iterable[str]]) -> None:
    """Treat the values of the variables ``names()`` lists, whenever text is redacted, as secrets: for a
    registry whose members (and so their key variables) may grow after this call, e.g. the LLM providers."""
    with _lock:
        if names not in _sources:
            _sources.append(names)


def secret_env_names() -> set[str]:
    """Every environment variable whose value is a secret, as the layers that own them registered them."""
    with _lock:
        names = set(_extra_envs)
        sources = list(_sources)
    for source in sources:
        names.update(name for name in source() if name)
    return names


def _forms(value: str) -> set[str]:
    """The ways a value is spelled in text: as is, stripped, escaped as Python and JSON print it (a
    non-ASCII or newline character appears as ``\\xe9``/``\\u00e9``/``\\n``), as UTF-8 bytes' repr, and
    each long white-space-separated piece (a key with a space may be printed split)."""
    forms = {value, value.strip()}
    forms.add(repr(value)[1:-1])
    forms.add(ascii(value)[1:-1])
    forms.add(json.dumps(value)[1:-1])
    forms.add(json.dumps(value, ensure_ascii=False)[1:-1])
    forms.add(str(value.encode("utf-8", "replace"))[2:-1])
    forms.update(value.split())
    return {f for f in forms if len(f) >= MIN_SECRET}


def secret_values() -> tuple[str, ...]:
    """The secret values set now, in every spelling, longest first (a longer form is replaced whole)."""
    return _spellings(tuple(sorted({os.environ.get(name) or "" for name in secret_env_names()})))


@functools.lru_cache(maxsize=8)
def _spellings(values: tuple[str, ...]) -> tuple[str, ...]:
    forms: set[str] = set()
    for value in values:
        if value:
            forms |= _forms(value)
    return tuple(sorted(forms, key=len, reverse=True))


def _mask_header(match: re.Match[str]) -> str:
    prefix = next(group for group in match.groups() if group is not None)
    return prefix + MASK


def redact(text: str) -> str:
    """``text`` with every secret value and every ``Authorization``/``Bearer`` credential masked."""
    if not text:
        return text
    for value in secret_values():
        if value in text:
            text = text.replace(value, MASK)
    return _HEADER.sub(_mask_header, text)


def redact_exception(exc: BaseException, tb: TracebackType | None = None) -> str:
    """The full traceback of ``exc`` (with its chain), redacted."""
    return redact("".join(traceback.format_exception(type(exc), exc, tb or exc.__traceback__)))


# -- logging -------------------------------------------------------------------------------------------

_installed: set[str] = set()


def _redacted_record(record: logging.LogRecord) -> logging.LogRecord:
    try:
        message = record.getMessage()
    except Exception:  # noqa: BLE001 - a bad format string is logging's to report, not ours
        return record
    clean = redact(message)
    if clean != message:
        record.msg, record.args = clean, None
    if record.exc_info and record.exc_info[1] is not None and not record.exc_text:
        # Formatters use exc_text when it is set: the traceback is formatted once, here, redacted.
        record.exc_text = redact("".join(traceback.format_exception(*record.exc_info)).rstrip("\n"))
    return record


def install_logging() -> None:
    """Redact every log record when it is made (a record factory reaches every handler, including
    handlers added after this call)."""
    with _lock:
        if "logging" in _installed:
            return
        _installed.add("logging")
    previous = logging.getLogRecordFactory()

    def factory(*args: Any, **kwargs: Any) -> logging.LogRecord:
        return _redacted_record(previous(*args, **kwargs))

    logging.setLogRecordFactory(factory)


def install_excepthooks() -> None:
    """Tracebacks that reach the terminal (bugs, and threads that die) are printed redacted."""
    with _lock:
        if "excepthooks" in _installed:
            return
        _installed.add("excepthooks")

    def hook(kind: type[BaseException], exc: BaseException, tb: TracebackType | None) -> None:
        sys.stderr.write(redact("".join(traceback.format_exception(kind, exc, tb))))

    def thread_hook(args: threading.ExceptHookArgs) -> None:
        if args.exc_type is SystemExit or args.exc_value is None:
            return
        name = args.thread.name if args.thread else "?"
        sys.stderr.write(f"Exception in thread {name}:\n")
        hook(args.exc_type, args.exc_value, args.exc_traceback)

    sys.excepthook = hook
    threading.excepthook = thread_hook


def install() -> None:
    """The hooks that need no Prefect: logging and tracebacks (the CLI calls this first)."""
    install_logging()
    install_excepthooks()
