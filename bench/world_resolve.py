"""World-model speed: ``resolve`` on a 300-node scene graph (target: under 1 ms a call), and, for scale,
building a graph of a usual scene and simulating a plan on it.

The graph holds the kitchen's places and as many catalog objects as make 300 nodes; every kind of
expression is timed (a noun, a name, attributes, a relation, a nested relation), each the median of many
calls after the first (which builds the graph's lookup tables once; that cost is printed apart).
Usage: python bench/world_resolve.py [--nodes 300] [--calls 2000]
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import time


def median_ms(fn, calls: int) -> float:  # type: ignore[no-untyped-def]
    times = []
    for _ in range(calls):
        t = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t)
    return statistics.median(times) * 1000


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--nodes", type=int, default=300)
    parser.add_argument("--calls", type=int, default=2000)
    args = parser.parse_args()

    from ambiforge.catalog import load_catalog
    from ambiforge.catalog.world import cached_world
    from ambiforge.environment import sample_scene
    from ambiforge.environment.sampler import Scene
    from ambiforge.world import Action, Expression, RelationConstraint, build_graph, resolve, simulate
    from ambiforge.world.index import index

    catalog = load_catalog()
    n_objects = args.nodes - len(cached_world().places)
    objects = list(catalog.objects.values())
    if n_objects > len(objects):
        raise SystemExit(f"the catalog has {len(objects)} objects; at most {len(objects) + 14} nodes")
    graph = build_graph(Scene(tuple(objects[:n_objects])), seed=1)
    print(f"cores: {os.cpu_count()}, load average before: {os.getloadavg()[0]:.1f}")
    print(f"graph: {len(graph.nodes)} nodes, {len(graph.edges)} edges")
    t = time.perf_counter()
    index(graph)
    print(f"lookup tables, once per graph: {(time.perf_counter() - t) * 1000:.2f} ms")

    kettle = Expression(noun="kettle")
    expressions = {
        "noun 'mug'": "mug",
        "name 'glass mug'": "glass mug",
        "noun + attributes (metal, microwave-safe)": Expression(
            noun="bowl", attributes={"material": "metal", "microwave_safe": False}
        ),
        "relation (left of the kettle)": Expression(relations=(RelationConstraint(relation="left_of", target=kettle),)),
        "nested (milk in the fridge next to a juice)": Expression(
            noun="milk",
            relations=(
                RelationConstraint(relation="in", target=Expression(name="fridge")),
                RelationConstraint(relation="next_to", target=Expression(noun="juice")),
            ),
        ),
        "everything (no constraint)": Expression(),
    }
    worst = 0.0
    for label, expr in expressions.items():
        found = len(resolve(graph, expr))
        ms = median_ms(lambda e=expr: resolve(graph, e), args.calls)
        worst = max(worst, ms)
        print(f"resolve {label:<45} {ms * 1000:8.1f} µs  ({found} nodes)")
    print(f"slowest resolve: {worst:.3f} ms (target < 1 ms): {'ok' if worst < 1 else 'TOO SLOW'}")

    scene = sample_scene(catalog, random.Random(7), include=["milks", "mugs"])
    ms = median_ms(lambda: build_graph(scene, 7), 200)
    small = build_graph(scene, 7)
    milk = next(n.id for n in small.nodes if n.group == "milks")
    mug = next(n.id for n in small.nodes if n.group == "mugs")
    where = next(e.target for e in small.edges if e.source == mug)
    plan = [
        Action(verb="open", obj="fridge"),
        Action(verb="take_out", obj=milk, target="fridge"),
        Action(verb="pour", obj=milk, target=mug),
        Action(verb="put_in", obj=milk, target="fridge"),
        Action(verb="close", obj="fridge"),
    ]
    if where.startswith("cupboard"):
        plan = [Action(verb="open", obj=where), *plan]
    sim_ms = median_ms(lambda: simulate(small, plan), 200)
    print(f"build_graph, usual scene ({len(small.nodes)} nodes): {ms:.2f} ms")
    print(f"simulate a {len(plan)}-step plan: {sim_ms:.2f} ms")
    print(f"simulation ok: {simulate(small, plan).ok}")


if __name__ == "__main__":
    main()
