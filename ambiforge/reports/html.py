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
    loader=jinja2.PackageLoader("ambiforge.reports", "templates"),
    autoescape=lambda name: bool(name) and name.endswith(".html.j2"),  # Markdown templates are not HTML
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


def bar_chart(title: str, labels: list[str], values: list[float], xlabel: str = "") -> str:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(5, 2.6))
    ax.bar(labels, values, color="#4c78a8")
    ax.set_title(title)
    ax.set_xlabel(xlabel)
    for i, v in enumerate(values):
        ax.annotate(f"{v:g}", (i, v), ha="center", va="bottom", fontsize=8)
    return figure_uri(fig)


def histogram(title: str, values: list[float], xlabel: str, bins: int = 20) -> str:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(5, 2.6))
    ax.hist(values, bins=bins, color="#72b7b2", edgecolor="white")
    ax.set_title(title)
    ax.set_xlabel(xlabel)
    ax.set_ylabel("items")
    return figure_uri(fig)
