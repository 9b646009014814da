"""The environment variables that point ambiforge at Label Studio.

Apart from :mod:`ambiforge.review.client` (which imports httpx) because :mod:`ambiforge.redaction` needs the
key's name on every log record, from any thread: importing the client there made the first log line of a
worker thread import httpx while the ``openai`` SDK, in another thread, read the half-imported module from
``sys.modules`` (``AttributeError: partially initialized module 'httpx'``).
"""

from __future__ import annotations

URL_ENV = "LABEL_STUDIO_URL"
API_KEY_ENV = "LABEL_STUDIO_API_KEY"  # a secret: redacted from logs and errors (ambiforge.redaction)
