"""Small hand-laid kitchens: the sampler's node builders with edges chosen by the test, so a test states
exactly where everything is."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence

import pytest

from ambiforge.catalog import Catalog
from ambiforge.catalog.world import cached_world
from ambiforge.models.scene_graph import Edge, SceneGraph
from ambiforge.world.sampler import node_id, object_node, place_node, row_edges

MakeGraph = Callable[..., SceneGraph]


@pytest.fixture
def make_graph(catalog: Catalog) -> MakeGraph:
    def make(where: Mapping[str, str], rows: Mapping[str, Sequence[str]] = {}) -> SceneGraph:  # noqa: B006
        """``where``: object name -> place id; ``rows``: place id -> front row of node ids, left to right."""
        world = cached_world()
        nodes = [place_node(p) for p in world.places]
        edges: list[Edge] = []
        for name, place in where.items():
            oid = node_id(name)
            nodes.append(object_node(catalog.objects[name], oid, world))
            edges.append(Edge(source=oid, relation=world.place(place).holds, target=place))
        for row in rows.values():
            edges += row_edges([list(row)])
        return SceneGraph(
            nodes=tuple(nodes), edges=tuple(sorted(edges, key=lambda e: (e.source, e.relation, e.target)))
        )

    return make
