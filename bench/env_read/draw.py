"""Draw an environment read: 40 items of the four environment-induced types (10 each) of a fresh seed, each
with both kitchens as readable text, for a reader who did not write them.

The items are made as a build makes them (one offline generator, pairs in order, no repeated task). The
reader's folder gets ``items.txt`` and ``README.md`` (field meanings, each type's property, the defect
classes); what the generator and the rules claim of each item (its id, seed and index, the candidates and
their places, the rules' findings) goes to ``key.csv`` in a folder beside it, so the reader never sees it.

Usage: python bench/env_read/draw.py --seed N [--per-type 10] [--out DIR]
Writes DIR/items.txt, DIR/README.md and DIR-key/key.csv.
"""

from __future__ import annotations

import argparse
import csv
import shutil
from pathlib import Path

HERE = Path(__file__).resolve().parent
TYPES = ("multiplicity", "absence", "reference", "observation")


def draw(seed: int, per_type: int) -> list:  # type: ignore[type-arg]
    from ambiforge.catalog import load_catalog
    from ambiforge.generation.offline import OfflineGenerator
    from ambiforge.textnorm import signature

    gen = OfflineGenerator(load_catalog(), seed, f"env-read-{seed}")
    taken: set[str] = set()
    items = []
    index = 0
    for kind in TYPES:
        for _ in range(per_type):
            item, _attempt = gen.generate(index, kind, taken)
            taken.add(signature(item.unambiguous_direct))
            items.append(item)
            index += 1
    return items


def _names(graph, ids: list[str]) -> list[str]:  # type: ignore[no-untyped-def]
    by_id = {n.id: n.name for n in graph.nodes}
    return [by_id.get(i, i) for i in ids]


def render(number: int, item) -> str:  # type: ignore[no-untyped-def]
    from ambiforge.world.describe import describe

    world, p = item.world, item.world.perturbation
    clear_names = {n.id: n.name for n in world.graph.nodes}
    lines = [
        f"=== {number}. [{item.ambiguity_type}]",
        f"task: {item.unambiguous_direct}",
        f"referent: {p.referent!r}  target: {clear_names.get(world.target, world.target)}",
        f"change: added={_names(p.graph, p.added)} removed={_names(world.graph, p.removed)} "
        f"moved={_names(p.graph, p.moved)}",
        f"question: {item.question}",
        f"answer:   {item.answer}",
        f"clear plan (clear kitchen):       {' / '.join(item.plan_for_clear_task)}",
        f"ambiguous plan (changed kitchen): {' / '.join(item.plan_for_amb_task)}",
        f"end_of_ambiguity: {item.end_of_ambiguity}   user_intent: {item.user_intent}",
        f"CLEAR KITCHEN: {describe(world.graph)}",
        f"CHANGED KITCHEN: {describe(p.graph)}",
        f"clear environment list:   {item.environment_short}",
        f"changed environment list: {p.environment_short}",
    ]
    for view in p.views:
        who = "asking robot" if view.agent == "robot" else "other robot"
        seen = [n for n in _names(p.graph, view.nodes) if n]
        lines.append(f"{who} sees: {', '.join(seen)}")
    return "\n".join(lines) + "\n"


def key_rows(items: list) -> list[dict[str, str]]:  # type: ignore[type-arg]
    from ambiforge.validation.context import RuleContext
    from ambiforge.validation.rules import check_item
    from ambiforge.validation.rules.world_environment import plans_of
    from ambiforge.world import resolve
    from ambiforge.world.perturb import parse_referent, place_of

    rows = []
    for number, item in enumerate(items, 1):
        world, p = item.world, item.world.perturbation
        noun = parse_referent(p.referent).noun or p.referent
        fits = resolve(p.graph, noun)
        plans = plans_of(item, world, p)
        found = check_item(item, RuleContext())
        rows.append(
            {
                "item": str(number),
                "id": item.id,
                "type": item.ambiguity_type,
                "seed_index_template": f"{item.provenance.seed}:{item.provenance.index}:{item.provenance.template}",
                "noun_fits_in_changed": "; ".join(f"{n.name} ({place_of(p.graph, n.id)})" for n in fits),
                "plans_part_at": str(plans.end),
                "rule_findings": "; ".join(f"{f.rule}: {f.message}" for f in found),
            }
        )
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, required=True, help="a seed no earlier read used")
    parser.add_argument("--per-type", type=int, default=10)
    parser.add_argument("--out", type=Path, default=None, help="default: bench/labels/env-read-<seed>")
    args = parser.parse_args()
    out: Path = args.out or HERE.parent / "labels" / f"env-read-{args.seed}"
    key_dir = out.with_name(out.name + "-key")
    out.mkdir(parents=True, exist_ok=True)
    key_dir.mkdir(parents=True, exist_ok=True)
    items = draw(args.seed, args.per_type)
    (out / "items.txt").write_text("\n".join(render(i, it) for i, it in enumerate(items, 1)), encoding="utf-8")
    shutil.copyfile(HERE / "README.md", out / "README.md")
    rows = key_rows(items)
    with (key_dir / "key.csv").open("w", newline="", encoding="utf-8") as fh:
        writer = csv.DictWriter(fh, fieldnames=list(rows[0]))
        writer.writeheader()
        writer.writerows(rows)
    flagged = sum(1 for r in rows if r["rule_findings"])
    print(f"{len(items)} items -> {out}/items.txt; key -> {key_dir}/key.csv ({flagged} with rule findings)")


if __name__ == "__main__":
    main()
