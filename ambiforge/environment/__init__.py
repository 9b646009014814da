"""Scenes: seeded sampling of objects from the catalog, steering towards a type, and rendering as text."""

from ambiforge.environment.articles import indefinite, with_article
from ambiforge.environment.sampler import Scene, render_environment, sample_scene
from ambiforge.environment.steering import SceneSteering

__all__ = [
    "Scene",
    "SceneSteering",
    "indefinite",
    "render_environment",
    "sample_scene",
    "with_article",
]
