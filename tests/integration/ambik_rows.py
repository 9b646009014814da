"""Where the published AmbiK rows are: ``../shared/data`` beside the checkout in CI; a git worktree one level
deeper finds it one up. Tests that read them skip with this path in the reason when they are absent."""

from __future__ import annotations

from tests.conftest import REPO

SHARED = next(
    (
        p
        for p in (R / "shared" / "data" for R in (REPO.parent, REPO.parent.parent))
        if (p / "ambik_dev_400.csv").exists()
    ),
    REPO.parent / "shared" / "data",
)
