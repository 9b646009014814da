"""Talking to Label Studio (official SDK) with errors a maintainer can act on.

The URL and API key come from ``LABEL_STUDIO_URL`` and ``LABEL_STUDIO_API_KEY`` only; the key is never
printed, logged or written.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from typing import Any, TypeVar

import httpx

from ambiforge.errors import AmbiforgeError, ConfigError
from ambiforge.review.env import API_KEY_ENV, URL_ENV

T = TypeVar("T")


class ReviewError(AmbiforgeError):
    exit_code = 1


def shown(url: str) -> str:
    """The URL as errors and reports show it: any ``user:password@`` left out (a URL may carry credentials,
    and an error line ends up in terminals, logs and CI output)."""
    from urllib.parse import urlsplit, urlunsplit

    try:
        parts = urlsplit(url)
    except ValueError:
        return "<a URL that cannot be parsed>" if "@" in url else url
    if "@" not in parts.netloc:
        return url
    host = parts.netloc.rsplit("@", 1)[1]
    return urlunsplit(parts._replace(netloc=f"***@{host}"))


def settings(url: str | None = None, api_key: str | None = None) -> tuple[str, str]:
    """``(url, key)`` from the arguments or the environment, checked before any request: a URL that is
    not http(s)://host, or a key an HTTP header cannot carry (the HTTP library's error would quote it), is
    one line naming the variable (never the key's value)."""
    from urllib.parse import urlsplit

    from ambiforge.config.llm import key_problem

    url = (url or os.environ.get(URL_ENV) or "").strip()
    api_key = api_key or os.environ.get(API_KEY_ENV) or ""
    if not url or not api_key:
        raise ConfigError(f"Label Studio is not configured: set {URL_ENV} and {API_KEY_ENV}")
    try:
        parts = urlsplit(url)
        parts.port  # noqa: B018 - raises ValueError for a bad port
    except ValueError:
        parts = None
    if parts is None or parts.scheme not in ("http", "https") or not parts.hostname or any(c.isspace() for c in url):
        raise ConfigError(f"{URL_ENV}: expected http(s)://HOST[:PORT], got {shown(url)!r}")
    if problem := key_problem(api_key):
        raise ConfigError(f"{API_KEY_ENV}: {problem} (the value is not shown)")
    return url.rstrip("/"), api_key


def connect(url: str | None = None, api_key: str | None = None) -> tuple[Any, str]:
    """The SDK client and the server's URL as messages show it (:func:`shown`)."""
    from label_studio_sdk import LabelStudio

    url, api_key = settings(url, api_key)
    return LabelStudio(base_url=url, api_key=api_key, timeout=60), shown(url)


def call(url: str, what: str, fn: Callable[[], T]) -> T:
    """Run one SDK call; turn transport and HTTP failures into one-line errors naming the server."""
    from label_studio_sdk.core.api_error import ApiError

    try:
        return fn()
    except httpx.TransportError as exc:
        raise ReviewError(f"cannot reach Label Studio at {url} ({what}): {type(exc).__name__}") from None
    except ApiError as exc:
        if exc.status_code in (401, 403):
            raise ReviewError(f"Label Studio at {url} refused the API key ({what}: HTTP {exc.status_code})") from None
        if exc.status_code == 404:
            raise ReviewError(f"Label Studio at {url}: not found while {what} (was the project deleted?)") from None
        body = exc.body if isinstance(exc.body, dict) else {}
        detail = body.get("validation_errors") or body.get("detail")
        raise ReviewError(
            f"Label Studio at {url}: {what} failed with HTTP {exc.status_code}" + (f": {detail}" if detail else "")
        ) from None
