"""Check a seeded offline build's plans against its worlds, pair by pair (default 10,000 pairs).

For every item: the clear plan runs in the simulator, so does the plan under every right answer (the
target replaced), every amount and program the task says is in some step, and no step calls an object by
a name its state no longer fits (a washed "dirty" plate). Prints the counts and the first problems; exits
1 when any is found (a check script, not a speed figure).

Usage: python bench/world_plans_check.py [--pairs 10000] [--seed 1]
"""

from __future__ import annotations

import argparse
import sys
import time


def main() -> int:
    from ambiforge.ambiguity import default_mix
    from ambiforge.catalog import load_catalog
    from ambiforge.generation.mix import type_sequence
    from ambiforge.generation.offline import OfflineGenerator
    from ambiforge.generation.offline.composition import unframed
    from ambiforge.generation.offline.steps import substitute
    from ambiforge.world import simulate, stale_names, task_values, uncovered

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pairs", type=int, default=10_000)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    gen = OfflineGenerator(load_catalog(), args.seed, "check")
    problems: list[str] = []
    checked = steps = 0
    start = time.perf_counter()
    for index, kind in enumerate(type_sequence(args.pairs, default_mix(), args.seed)):
        item = gen.generate(index, kind)[0]
        world = item.world
        if world is None or not world.clear_plan or world.target is None:
            problems.append(f"{item.id}: no world or no clear plan")
            continue
        graph, plan = world.graph, world.clear_plan
        steps += len(plan)
        result = simulate(graph, plan)
        if not result.ok:
            problems.append(f"{item.id}: {result.message}")
        for other in world.fitting:
            if other != world.target:
                under = simulate(graph, substitute(plan, world.target, other))
                if not under.ok:
                    problems.append(f"{item.id} (answer {other}): {under.message}")
        task = unframed(item.unambiguous_direct)
        problems += [f"{item.id}: {p}" for p in uncovered(graph, plan, values=task_values(task))]
        problems += [f"{item.id}: {p}" for p in stale_names(graph, plan, item.plan_for_clear_task)]
        checked += 1
    seconds = time.perf_counter() - start
    print(f"{checked} items, {steps} plan steps checked in {seconds:.0f} s; problems: {len(problems)}")
    print(f"drafts refused while building (reason: count): {sum(gen.refused.values())}")
    for reason, n in gen.refused.most_common(5):
        print(f"  {n:6d}  {reason}")
    for p in problems[:20]:
        print("  " + p)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
