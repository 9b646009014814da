"""HTML reports: jinja2 templates with plots embedded (matplotlib PNG or HTML bars), one self-contained file each."""

from ambiforge.rendering.html import figure_uri, render

__all__ = ["figure_uri", "render"]
