"""The offline provider: a deterministic template generator over the catalog.

Each ambiguity type's templates are data (``templates.yaml`` in the type's folder); the code here is
generic: mechanisms (:mod:`.mechanisms`) say how an ambiguity arises in a scene, :mod:`.library` loads the
templates, :mod:`.rendering` words them. It needs no key and no network, so a new user sees the whole
pipeline; it is also the reference the LLM path is compared against.
"""

from ambiforge.generation.offline.generator import OfflineGenerator, scene_steering
from ambiforge.generation.offline.library import candidates, requirements, templates_for

__all__ = ["OfflineGenerator", "candidates", "requirements", "scene_steering", "templates_for"]
