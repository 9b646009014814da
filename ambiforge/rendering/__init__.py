"""HTML reports: jinja2 templates with matplotlib figures embedded as PNG, one self-contained file each."""

from ambiforge.rendering.html import figure_uri, render

__all__ = ["figure_uri", "render"]
