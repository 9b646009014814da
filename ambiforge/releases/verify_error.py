"""The error of a release that does not verify (exit 1): one line naming the first disagreement."""

from __future__ import annotations

from ambiforge.errors import AmbiforgeError


class VerifyError(AmbiforgeError):
    exit_code = 1
