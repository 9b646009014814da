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
#: A test of a scene given as its objects' bits (:meth:`Catalog.bits_of`).
SceneTest = Callable[[int], bool]


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
    #: A test of a scene that fails only where a template's ``candidates`` offer nothing, made once per
    #: template and catalog: a template whose scene fails it is not asked, and a draw none of whose templates
    #: is asked lays out no graph. None: the mechanism does not say, and its templates are always asked.
    needs: Callable[[Any, Catalog], SceneTest] | None = None


def default_requirements(spec: TemplateSpec) -> list[Predicate]:
    return [c.matches for c in spec.requirements()]


def holding_bits(wanted: tuple[int, ...]) -> SceneTest:
    """A scene test: the scene holds one of the objects of each of ``wanted`` (:attr:`Catalog.bits`)."""
    if len(wanted) == 1:  # the usual one or two objects: every draw tests every template of its type
        (first,) = wanted
        return lambda held: first & held != 0
    if len(wanted) == 2:
        first, second = wanted
        return lambda held: first & held != 0 and second & held != 0
    return lambda held: all(b & held for b in wanted)


def holding_requirements(spec: TemplateSpec, catalog: Catalog) -> SceneTest:
    """The scene holds an object for each of the template's requirements (its target, its co-slots)."""
    return holding_bits(tuple(catalog.meeting_bits(c) for c in spec.requirements()))
