"""Rendering of self-contained HTML reports.

jinja2 for the page (autoescaped: item texts come from generators and annotators); plots are either
matplotlib figures (Agg backend) embedded as base64 PNG, or, where bars say it all, :class:`Chart` data that
the page draws as HTML bars, so a report is one file a maintainer can mail or open offline.
"""

from __future__ import annotations

import base64
import functools
import io
from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

import jinja2


@functools.cache
def environment() -> jinja2.Environment:
    """The templates' environment, made on first use; it keeps each template compiled once read. The
    templates are files of this package, unchanged while a process runs: no check of their mtimes."""
    return jinja2.Environment(
        loader=jinja2.PackageLoader("ambiforge.rendering", "templates"),
        autoescape=lambda name: name is not None and name.endswith(".html.j2"),  # Markdown is not HTML
        trim_blocks=True,
        lstrip_blocks=True,
        auto_reload=False,
    )


def template(name: str) -> jinja2.Template:
    """Template ``name``, compiled on its first use in this process (a report's page takes about 50 ms of
    CPU to compile); a build compiles its report's while it waits on an LLM's replies."""
    return environment().get_template(name)


def render(name: str, /, **context: Any) -> str:
    return template(name).render(**context)


def figure_uri(fig: Any) -> str:
    """A matplotlib figure as a data: URI (and the figure closed)."""
    import matplotlib.pyplot as plt

    buffer = io.BytesIO()
    fig.savefig(buffer, format="png", dpi=90, bbox_inches="tight")
    plt.close(fig)
    return "data:image/png;base64," + base64.b64encode(buffer.getvalue()).decode("ascii")


@dataclass(frozen=True)
class Bar:
    """One bar: its label, the value written beside it, its length and an optional mark, both in percent of
    the chart's width."""

    label: str
    text: str
    width: float
    mark: float | None = None


@dataclass(frozen=True)
class Chart:
    """A horizontal bar chart drawn by the page itself (``templates/validation.html.j2``): a few dozen bars say
    what a PNG would, read as text and cost no figure to draw. ``line``: a dashed rule across every bar (a
    limit), in percent of the width; ``legend``: what the bars and marks are."""

    title: str
    bars: tuple[Bar, ...]
    axis: str = ""
    line: float | None = None
    legend: str = ""


def _percent(value: float, top: float) -> float:
    return round(100 * value / top, 2) if top > 0 else 0.0


def bar_chart(
    title: str, labels: list[str], values: list[float], xlabel: str = "", *, targets: list[float] | None = None
) -> Chart:
    """Bars with their values written beside them; ``targets`` (one per bar) are drawn as marks, e.g. the
    number of items the target mix asks for."""
    top = max([*values, *(targets or []), 1])
    marks = targets if targets is not None else [None] * len(values)
    bars = tuple(
        Bar(label, f"{v:g}", _percent(v, top), None if t is None else _percent(t, top))
        for label, v, t in zip(labels, values, marks, strict=True)
    )
    return Chart(title, bars, xlabel)  # the title says what the marks are


def share_chart(title: str, labels: list[str], shares: list[float], limit: float | None = None) -> Chart:
    """Bars of shares (long labels such as n-grams read on the left), in the order given; ``limit`` is drawn
    as a dashed line (the share a target allows)."""
    top = max([*shares, limit or 0, 0.01]) * 1.25
    bars = tuple(Bar(label, f"{v:.1%}", _percent(v, top)) for label, v in zip(labels, shares, strict=True))
    return Chart(title, bars, line=None if limit is None else _percent(limit, top))


def histogram(title: str, values: Iterable[int] | Mapping[int, int], xlabel: str) -> Chart:
    """One bar per whole number from the smallest value to the largest (plan steps, objects), the empty
    ones included, so gaps show. ``values``: the numbers, or their tally (a :class:`~collections.Counter`),
    which is how a report of any size keeps them."""
    counts = Counter(values)
    low, high = (min(counts), max(counts)) if counts else (0, -1)
    top = max(counts.values(), default=1)
    bars = tuple(Bar(str(x), str(counts[x]), _percent(counts[x], top)) for x in range(low, high + 1))
    return Chart(title, bars, xlabel, legend="items")
