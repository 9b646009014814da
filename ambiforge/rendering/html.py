"""Rendering of self-contained HTML reports.

jinja2 for the page (autoescaped: item texts come from generators and annotators) and matplotlib's Agg
backend for plots, embedded as base64 PNG so a report is one file a maintainer can mail or open offline.
"""

from __future__ import annotations

import base64
import io
from typing import Any

import jinja2

_ENV = jinja2.Environment(
    loader=jinja2.PackageLoader("ambiforge.rendering", "templates"),
    autoescape=lambda name: name is not None and name.endswith(".html.j2"),  # Markdown templates are not HTML
    trim_blocks=True,
    lstrip_blocks=True,
)


def render(template: str, **context: Any) -> str:
    return _ENV.get_template(template).render(**context)


def figure_uri(fig: Any) -> str:
    """A matplotlib figure as a data: URI (and the figure closed)."""
    import matplotlib.pyplot as plt

    buffer = io.BytesIO()
    fig.savefig(buffer, format="png", dpi=90, bbox_inches="tight")
    plt.close(fig)
    return "data:image/png;base64," + base64.b64encode(buffer.getvalue()).decode("ascii")


def bar_chart(
    title: str, labels: list[str], values: list[float], xlabel: str = "", *, targets: list[float] | None = None
) -> str:
    """Bars with their values written on them; ``targets`` (one per bar) are drawn as marks, e.g. the
    number of items the target mix asks for. Counts get whole-number ticks."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from matplotlib.ticker import MaxNLocator

    fig, ax = plt.subplots(figsize=(5, 2.6))
    ax.bar(labels, values, color="#4c78a8", label="items")
    if targets is not None:
        ax.scatter(labels, targets, marker="_", s=900, linewidths=2.5, color="#e45756", zorder=3, label="target")
        ax.legend(fontsize=7, loc="upper right", frameon=False)
    ax.set_title(title)
    ax.set_xlabel(xlabel)
    if all(float(v).is_integer() for v in values):
        ax.yaxis.set_major_locator(MaxNLocator(integer=True))
    top = max([*values, *(targets or []), 1])
    ax.set_ylim(0, top * 1.18)
    for i, v in enumerate(values):
        ax.annotate(f"{v:g}", (i, v), ha="center", va="bottom", fontsize=8)
    ax.tick_params(axis="x", labelsize=7)
    return figure_uri(fig)


def share_chart(title: str, labels: list[str], shares: list[float], limit: float | None = None) -> str:
    """Horizontal bars of shares (long labels such as n-grams read on the left), the largest on top;
    ``limit`` is drawn as a dashed line (the share a target allows)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(6, 0.3 * len(labels) + 1.0))
    ax.barh(labels[::-1], shares[::-1], color="#4c78a8")
    if limit is not None:
        ax.axvline(limit, color="#e45756", linestyle="--", linewidth=1.5)
    ax.set_title(title)
    ax.set_xlim(0, max([*shares, limit or 0, 0.01]) * 1.25)
    for i, v in enumerate(shares[::-1]):
        ax.annotate(f"{v:.1%}", (v, i), va="center", fontsize=7, xytext=(2, 0), textcoords="offset points")
    ax.tick_params(axis="y", labelsize=7)
    fig.tight_layout()
    return figure_uri(fig)


def histogram(title: str, values: list[float], xlabel: str, bins: int = 20, *, integer: bool = False) -> str:
    """A histogram; ``integer`` puts one bar on each whole number (plan steps, objects) and whole-number ticks."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from matplotlib.ticker import MaxNLocator

    fig, ax = plt.subplots(figsize=(5, 2.6))
    if integer and values:
        low, high = int(min(values)), int(max(values))
        edges = [x - 0.5 for x in range(low, high + 2)]
        ax.hist(values, bins=edges, color="#72b7b2", edgecolor="white")
        ax.xaxis.set_major_locator(MaxNLocator(integer=True))
    else:
        ax.hist(values, bins=bins, color="#72b7b2", edgecolor="white")
    ax.yaxis.set_major_locator(MaxNLocator(integer=True))
    ax.set_title(title)
    ax.set_xlabel(xlabel)
    ax.set_ylabel("items")
    return figure_uri(fig)
