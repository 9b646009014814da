"""The contract of a mechanism: how one kind of ambiguity arises in a scene.

A mechanism reads its templates' fields (a :class:`~ambiforge.generation.offline.spec.TemplateSpec`
subclass), finds where a template applies in a scene and its scene graph (``candidates``: who a referent
can mean is asked of the graph, :mod:`..referents`), and says which objects a scene must
hold for it (``requirements``, used to steer scene sampling). Types only choose mechanisms and write data.

The offline generator gives ``candidates`` the kitchen's nodes only (a graph whose relations are unknown,
:class:`ambiforge.world.sampler.Layout`): candidates and the drafts they build ask who is there and what it
can do, never where it stands; the graph with its relations is placed for the drafts that are composed.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from ambiforge.catalog import Catalog, CatalogObject
from ambiforge.environment import Scene
from ambiforge.generation.offline.rendering import Candidate
from ambiforge.generation.offline.spec import TemplateSpec
from ambiforge.models.scene_graph import SceneGraph

Predicate = Callable[[CatalogObject], bool]


@dataclass(frozen=True)
class Mechanism:
    name: str
    spec: type[TemplateSpec]
    candidates: Callable[[Any, Scene, Catalog, SceneGraph], list[Candidate]]
    requirements: Callable[[Any], list[Predicate]]
    description: str = ""
    order: int = 1000  # place in the mechanism registry (its listings and errors); ties: by name
    #: The distinct tasks (by :func:`ambiforge.textnorm.signature`) a template of this mechanism can make
    #: from a catalog, for mechanisms whose tasks take no context clauses: the signatures themselves when
    #: they can be listed (types whose templates say the same sentences then share one pool), else a count.
    #: None: estimated the composed way (:mod:`ambiforge.generation.offline.capacity`).
    sentences: Callable[[Any, Catalog], frozenset[str] | int] | None = None
    #: What ``candidates`` cannot offer anything without: one predicate per object, each to be met by some
    #: object of the scene (as the catalog holds it; the mechanism's tests on the graph's nodes read the same
    #: of it). A template whose scene lacks one is not asked, and a draw none of whose templates is asked
    #: lays out no graph. None: the mechanism does not say, and its templates are always asked.
    needs: Callable[[Any], list[Predicate]] | None = None


def default_requirements(spec: TemplateSpec) -> list[Predicate]:
    return [c.matches for c in spec.requirements()]
