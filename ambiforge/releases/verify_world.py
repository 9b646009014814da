"""``verify``, the worlds: what the item schema cannot say about a row's scene graphs and claims.

``schemas/item.schema.json`` (which embeds the scene graph's schema) checks each graph's shape; it cannot
check that node ids are unique, that every edge joins nodes of the graph in a way its places allow, that no
object contains itself through others, or that the node ids an item's claims name are nodes of its own
graphs. A forged or hand-edited row could pass the schema and still point at a node that does not exist;
the release would then ship a claim nothing can check. The check is the one every reader of items uses
(:func:`ambiforge.world.integrity.item_problem`), on the clear and the perturbed graph alike.
"""

from __future__ import annotations

from typing import Any

from ambiforge.world.integrity import NODE_ARGUMENTS, item_problem

__all__ = ["NODE_ARGUMENTS", "world_problem"]


def world_problem(record: dict[str, Any]) -> str | None:
    """Why a schema-valid record's worlds do not hold together, as ``key: reason``; None when they do
    (or the item has no world)."""
    return item_problem(record)
