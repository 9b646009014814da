"""The environment variables that point ambiforge at Label Studio.

The key's variable is registered with :mod:`ambiforge.redaction` when this module is imported (every module
that talks to Label Studio imports it), so its value is masked in every log record and file. Apart from
:mod:`ambiforge.review.client` (which imports httpx) because redaction reads the names on every log record,
from any thread: importing httpx from there once made the first log line of a worker thread import httpx
while the ``openai`` SDK, in another thread, read the half-imported module from ``sys.modules``.
"""

from __future__ import annotations

from ambiforge.redaction import register_env

URL_ENV = "LABEL_STUDIO_URL"
API_KEY_ENV = "LABEL_STUDIO_API_KEY"  # a secret: redacted from logs and errors (ambiforge.redaction)

register_env(API_KEY_ENV)
