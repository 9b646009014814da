"""Issue 39's checks on a seeded offline build, as counts (prints, never asserts).

Generates the pairs a build makes (the default type mix, in order; ``--pairs``) and reads every item with the
independent reader (ambiforge/validation/reader/). Prints how many items have: a greeting after a request's
first words; two time references of the incompatible list (or a later clause done at once); a phrase the
item's recorded frame does not allow; a determiner out of number with its noun ("this cherry tomatoes", "some
our milk"); a food heated "again" that was never hot; a common-sense answer its variants disagree with; a clean
object loaded into the dishwasher; a sentence no one says ("Brilliant, thank you." before the work); a pour
or serve step with no container target; a
cut-like step with no tool in hand; a common-sense item whose candidates are not complete by the affordance
table (a candidate that does the job missing from the variants); a put-down picked up again at once; a counter
appliance picked up; a drink heated in its carton; frozen food out of the freezer; common-sense storage of a
food kept in two places; grams with no scale; a compound name ("peanut butter") listed for "butter"; a verb
said of a food it is not said of ("squeeze the apple"); any other reader finding; and the share of
items whose job is recorded (``world.affordance``) among those whose template names one.
Usage: python bench/item_checks.py [--pairs 2000] [--seed 1]
"""

from __future__ import annotations

import argparse
import time
from collections import Counter


def classify(kind: str, message: str) -> str:
    if "just put down" in message:
        return "a put-down picked up again at once"
    if "used where it stands" in message:
        return "a counter appliance picked up as a hand tool"
    if "in its carton" in message:
        return "a drink or soup heated in its carton"
    if "frozen" in message:
        return "frozen food kept out of the freezer"
    if "households differ" in message:
        return "common-sense storage of a food kept in two places"
    if "nothing to weigh it with" in message:
        return "grams with no scale in the kitchen"
    if "resolves whole" in message:
        return "a compound name listed for its last word"
    if "a word said of" in message:
        return "a verb said of a food it is not said of"
    if kind == "speech":
        if "greeting" in message:
            return "greeting after the first words"
        if "presupposition" in message:
            return "'again' the world does not support"
        if "number agreement" in message:
            return "determiner out of number with its noun"
        if "item's frame" in message or message.startswith("frame:"):
            return "phrase disagreeing with the item's frame"
        if "ordinal" in message:
            return "ordinal out of order"
        if "in a hurry" in message:
            return "a hurried request that asks for a wait"
        if "time contradiction" in message:
            return "incompatible time tags"
        if "not at hand" in message:
            return "a demonstrative ('this knife') of an object not at hand"
        return "a sentence no one says (reply-like thanks, thanks twice, no subject, purpose misplaced)"
    if kind == "variants":
        if "alone" in message or "accepts any of" in message:
            return "common-sense answer and variants disagree"
        if "names the" in message:
            return "common-sense task whose verb names the appliance"
        if "does the job as well" in message:
            return "another appliance does the common-sense job"
        return "candidates incomplete by the affordance table"
    if "what is loaded is used" in message:
        return "dishwasher loaded with a clean object"
    if "moves nothing" in message:
        return "a move to where the object already is"
    if "pours" in message and "cannot hold" in message:
        return "pour/serve with no container target"
    tool_verbs = (
        "cuts with",
        "slices with",
        "chops with",
        "dices with",
        "peels with",
        "grates with",
        "spreads with",
        "stirs with",
        "whisks with",
        "fillets with",
    )
    if any(v in message for v in tool_verbs):
        return "cut-like step with no tool in hand"
    return "other reader finding"


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--pairs", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()

    from ambiforge.ambiguity import default_mix
    from ambiforge.catalog import load_catalog
    from ambiforge.generation.mix import type_sequence
    from ambiforge.generation.offline import OfflineGenerator
    from ambiforge.validation.reader import read_item

    gen = OfflineGenerator(load_catalog(), args.seed, "item-checks")
    counts: Counter[str] = Counter()
    examples: dict[str, str] = {}
    with_job = jobs = framed = 0
    start = time.process_time()
    items = [gen.generate(i, t)[0] for i, t in enumerate(type_sequence(args.pairs, default_mix(), args.seed))]
    made = time.process_time() - start
    for item in items:
        seen = set()
        for kind, messages in read_item(item).items():
            for message in messages:
                cls = classify(kind, message)
                seen.add(cls)
                examples.setdefault(cls, f"{item.provenance.template}: {message}")
        counts.update(seen)
        framed += item.frame is not None
        if item.world is not None and item.world.fitting and not item.amb_shortlist:
            jobs += 1
            with_job += bool(item.world.affordance)
    print(
        f"{len(items)} items (seed {args.seed}), generated in {made:.1f} s CPU ({1000 * made / len(items):.2f} ms/pair)"
    )
    for cls in (
        "greeting after the first words",
        "incompatible time tags",
        "phrase disagreeing with the item's frame",
        "determiner out of number with its noun",
        "'again' the world does not support",
        "pour/serve with no container target",
        "cut-like step with no tool in hand",
        "candidates incomplete by the affordance table",
        "a move to where the object already is",
        "ordinal out of order",
        "a hurried request that asks for a wait",
        "a put-down picked up again at once",
        "a counter appliance picked up as a hand tool",
        "a drink or soup heated in its carton",
        "frozen food kept out of the freezer",
        "common-sense storage of a food kept in two places",
        "grams with no scale in the kitchen",
        "a compound name listed for its last word",
        "a verb said of a food it is not said of",
        "common-sense task whose verb names the appliance",
        "another appliance does the common-sense job",
        "common-sense answer and variants disagree",
        "dishwasher loaded with a clean object",
        "a demonstrative ('this knife') of an object not at hand",
        "a sentence no one says (reply-like thanks, thanks twice, no subject, purpose misplaced)",
        "other reader finding",
    ):
        print(f"  {counts[cls]:5d}  {cls}" + (f"   e.g. {examples[cls]}" if cls in examples else ""))
    print(f"  items recording their discourse frame: {framed} of {len(items)}")
    print(f"  items with fitting variants and no shortlist: {jobs}, of them recording a job (affordance): {with_job}")


if __name__ == "__main__":
    main()
