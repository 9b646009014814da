"""The agreement page: figures per field, a heatmap of pairwise Cohen's kappa, and every item in the
adjudication queue with its text, each annotator's choices and a link to its Label Studio task."""

from __future__ import annotations

from typing import Any

from ambiforge.rendering import render
from ambiforge.rendering.html import figure_uri


def heatmap(pairwise: dict[str, float | None]) -> str | None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    import numpy as np

    names = sorted({n for pair in pairwise for n in pair.split("|")})
    if len(names) < 2:
        return None
    grid = np.full((len(names), len(names)), np.nan)
    for pair, value in pairwise.items():
        a, b = pair.split("|")
        if value is not None:
            grid[names.index(a), names.index(b)] = grid[names.index(b), names.index(a)] = value
    np.fill_diagonal(grid, 1.0)
    fig, ax = plt.subplots(figsize=(4.5, 3.8))
    im = ax.imshow(grid, vmin=-1, vmax=1, cmap="RdYlGn")
    ax.set_xticks(range(len(names)), names, rotation=30, ha="right")
    ax.set_yticks(range(len(names)), names)
    for i in range(len(names)):
        for j in range(len(names)):
            if not np.isnan(grid[i, j]):
                ax.text(j, i, f"{grid[i, j]:.2f}", ha="center", va="center", fontsize=8)
    ax.set_title("Cohen's kappa on the verdict")
    fig.colorbar(im, ax=ax)
    return figure_uri(fig)


def agreement_html(agreement: dict[str, Any], queue: list[dict[str, Any]]) -> str:
    return render(
        "agreement.html.j2", a=agreement, heatmap=heatmap(agreement["verdict"]["cohen_kappa_pairwise"]), queue=queue
    )
