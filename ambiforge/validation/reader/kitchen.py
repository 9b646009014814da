"""The reader's kitchen: the item's scene graph as the reader tracks it while it runs read steps (where
things are, what is held, open, hot, washed), built from the graph's nodes and edges alone."""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from ambiforge.models.scene_graph import Node, SceneGraph

LOCATIONS = ("in", "on", "inside")
_DET = re.compile(r"^(?:the|a|an|some|this|that|these|those|my|our)\s+", re.IGNORECASE)
WATER = "<water>"


def bare(phrase: str) -> str:
    """'the glass mug' -> 'glass mug'."""
    return _DET.sub("", phrase.strip()).strip().lower()


@dataclass
class Kitchen:
    graph: SceneGraph
    nodes: dict[str, Node] = field(default_factory=dict)
    by_name: dict[str, str] = field(default_factory=dict)
    location: dict[str, str] = field(default_factory=dict)  # node -> the place or object that holds it
    open: dict[str, bool] = field(default_factory=dict)
    holding: str | None = None
    hot: set[str] = field(default_factory=set)
    washed: set[str] = field(default_factory=set)
    gone: set[str] = field(default_factory=set)
    switched_on: set[str] = field(default_factory=set)
    filled: set[str] = field(default_factory=set)

    @classmethod
    def of(cls, graph: SceneGraph) -> Kitchen:
        k = cls(graph)
        for node in graph.nodes:
            k.nodes[node.id] = node
            k.by_name.setdefault(node.name.lower(), node.id)
            if node.state.open is not None:
                k.open[node.id] = bool(node.state.open)
        for edge in graph.edges:
            if edge.relation in LOCATIONS:
                k.location[edge.source] = edge.target
        return k

    def name(self, ref: str) -> str:
        node = self.nodes.get(ref)
        return node.name if node is not None else ref

    def find(self, phrase: str, referent: tuple[str, list[str]] | None = None) -> str | None:
        """The node a phrase names: its name; a washed object by its clean name; water; or, with
        ``referent`` (the intended node and the nouns that leave it open), the open referent."""
        text = bare(phrase)
        if referent is not None and text in referent[1]:
            return referent[0]
        if text in ("water", "boiling water", "boiled water", "hot water"):
            return WATER
        for washed in self.washed:
            if self.name(washed).lower() == f"dirty {text}":
                return washed
        if text in self.by_name:
            return self.by_name[text]
        if referent is not None and text in referent[1]:
            return referent[0]
        return None

    def mentions(self, text: str, referent: tuple[str, list[str]] | None = None) -> list[str]:
        """The nodes a free sentence names, longest names first, and the open referent's noun."""
        lowered, found = f" {text.lower()} ", []
        names = sorted(self.by_name, key=len, reverse=True)
        for washed in self.washed:
            names.insert(0, self.name(washed).lower().removeprefix("dirty "))
        for name in names:
            if name not in lowered:  # the pattern matches the name as written: most names are not said
                continue
            pattern = rf"(?<![\w-]){re.escape(name)}(?![\w-])"
            if re.search(pattern, lowered):
                ref = self.find(name)
                if ref is not None and ref not in found:
                    found.append(ref)
                lowered = re.sub(pattern, " ", lowered)
        if referent is not None:
            for noun in referent[1]:
                if re.search(rf"\b(?:a|an|some|the)\s+{re.escape(noun)}\b", lowered) and referent[0] not in found:
                    found.append(referent[0])
        return found

    def blocked_by(self, ref: str) -> str | None:
        """The closed place between the robot and ``ref`` (None: it can reach it)."""
        seen: set[str] = set()
        here = self.location.get(ref)
        while here is not None and here not in seen:
            seen.add(here)
            if self.open.get(here) is False:
                return here
            here = self.location.get(here)
        return None

    def inside(self, holder: str) -> list[str]:
        """Everything held by ``holder``, however deep."""
        out, frontier = [], [holder]
        while frontier:
            h = frontier.pop()
            for n, where in self.location.items():
                if where == h and n not in out:
                    out.append(n)
                    frontier.append(n)
        return out
