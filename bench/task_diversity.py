"""Issue 29's diversity targets, per seed: the first 500 unambiguous tasks of a seeded offline build.

For each seed it generates the pairs the build makes (the default type mix, in order), measures their
unambiguous tasks with :mod:`ambiforge.diversity` (lower-cased words ``[a-z']+``) and prints vocabulary,
distinct 3-grams, words per task, the most common opening and closing sentence and 5-gram (fixtures
aside), with whether each target holds. Prints, never asserts (the unit tests check that the measures are
computed correctly; these figures are read by people).
Usage: python bench/task_diversity.py [--seeds 1 2 3] [--pairs 500]
"""

from __future__ import annotations

import argparse

#: (figure of ``repeats``, floor, higher is better) at 500 tasks: the floors of repeated wording that remain
#: (issue 39); vocabulary and distinct 3-grams are printed as figures, not held to a target.
TARGETS = (
    ("opener_top_share", 0.02, False),
    ("closing_top_share", 0.03, False),
    ("ngram5_top_share", 0.05, False),
)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--seeds", type=int, nargs="+", default=[1, 2, 3])
    parser.add_argument("--pairs", type=int, default=500)
    args = parser.parse_args()

    from ambiforge import diversity
    from ambiforge.ambiguity import default_mix
    from ambiforge.catalog import load_catalog
    from ambiforge.generation.mix import type_sequence
    from ambiforge.generation.offline import OfflineGenerator

    catalog = load_catalog()
    print(f"first {args.pairs} unambiguous tasks of a seeded offline build")
    for seed in args.seeds:
        gen = OfflineGenerator(catalog, seed, "bench")
        items = [gen.generate(i, t)[0] for i, t in enumerate(type_sequence(args.pairs, default_mix(), seed))]
        figures = diversity.figures(items)
        r = figures["repeats"]
        words, steps = figures["words_per_task"], figures["plan_steps_mean"]
        print(
            f"seed {seed}: {words} words/task, {steps} plan steps, {r['opener_types']} openers, "
            f"vocabulary {r['vocabulary']}, distinct 3-grams {r['distinct_3']}"
        )
        for key, target, higher in TARGETS:
            ok = r[key] >= target if higher else r[key] <= target
            print(f"  {'holds' if ok else 'FAILS'} {key} {r[key]} ({'>=' if higher else '<='} {target})")
        print(f"  most common opener {r['opener_top']!r}, closing {r['closing_top']!r}")
        for gram, share in r["ngram5_top"][:5]:
            print(f"  5-gram {share:.1%} {gram!r}")


if __name__ == "__main__":
    main()
