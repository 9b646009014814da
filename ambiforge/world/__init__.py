"""The world model: scene graphs built from a seeded scene, queries on them, affordances, and plans as
symbolic actions checked by simulation (``docs/world-model.md``). Sits at the environment layer."""

from ambiforge.models.action import Action
from ambiforge.world.actions import render_action, render_plan
from ambiforge.world.affordance import able, afforded, can
from ambiforge.world.coverage import invented, stale_names, task_mentions, task_values, uncovered
from ambiforge.world.divergence import end_of_ambiguity
from ambiforge.world.query import Expression, RelationConstraint, resolve, retrieve_edge, retrieve_node
from ambiforge.world.sampler import build_graph, node_id, nodes_only_graph
from ambiforge.world.simulator import Simulation, SimulationResult, relocate, simulate

__all__ = [
    "uncovered",
    "task_values",
    "task_mentions",
    "stale_names",
    "invented",
    "Action",
    "Expression",
    "RelationConstraint",
    "Simulation",
    "SimulationResult",
    "able",
    "afforded",
    "build_graph",
    "can",
    "end_of_ambiguity",
    "node_id",
    "nodes_only_graph",
    "render_action",
    "relocate",
    "render_plan",
    "resolve",
    "retrieve_edge",
    "retrieve_node",
    "simulate",
]
