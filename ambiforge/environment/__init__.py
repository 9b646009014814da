"""Scenes: seeded sampling of objects from the catalog and their rendering as text."""

from ambiforge.environment.articles import indefinite, with_article
from ambiforge.environment.sampler import SamplerLimits, Scene, render_environment, sample_scene

__all__ = ["Scene", "SamplerLimits", "indefinite", "render_environment", "sample_scene", "with_article"]
