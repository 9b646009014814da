"""How well the keyword simulated user tells questions that ask for the hidden answer from those that do not.

Over the AmbiK calibration split (read where it is published, never copied), every row gets a reproducible
set of questions, each with the reply it should get:

- **own**: the row's own clarifying question (CSV column ``question``): should get the gold answer;
- **propose**: "Should I use the <option>?" for each of the row's options (shortlist, variants, positive
  intent concepts) that the ambiguous task does not already name: a proposed choice for the open slot,
  should get the gold answer (which says yes or no);
- **off-topic** (should *not* get the gold answer), built from the row's scene so they share its objects:
  ``other``: the own questions of the three other rows whose scenes share the most objects with this row's
  (ties by row id); ``scene``: "Where is the <object> kept?" and "Should I also wash the <object>?" for
  the first two scene objects (by name) that neither task mentions; ``task``: "Where is the <object>
  kept?" for the first two scene objects the ambiguous task mentions that are not among its options;
- **vague**: fixed vague or unrelated questions: should get the redirect;
- **confirm**: "Should I <the ambiguous task's first sentence>?": it hides the choice, so it should get
  the confirmation (a gold answer there is counted apart: it leaks nothing the question did not ask for
  only when the question names an option, which a restatement of the ambiguous task does not).

A question is *uncertain* when the automatic expectation may be wrong: an off-topic question that shares a
content word with the row's options or its own question (another row's question may ask for the same thing,
"Where is the orange kept?" may be the row's own question), or a proposal of an option the ambiguous task
only half names. Their hand labels (``gold`` or ``no``) are in bench/data/simulated_user_labels.csv, keyed by
row id and question; a labelled question's label replaces its automatic expectation everywhere below.

Prints, per ambiguity type and overall, the share of own questions that get gold, of off-topic questions
that get gold (low is good), of vague ones that get the redirect, of confirmations that get the
confirmation, and precision / recall of the gold decision against the hand labels and against all
expectations; then the share of the offline generator's pairs (``--offline N``, seed 1) whose own question
gets the gold answer, as the judge stage asks of every built pair. Prints, never asserts.

Usage: python bench/simulated_user_precision.py [--csv ../shared/data/ambik_calib_100.csv] [--labels ...]
       [--show off-topic-gold|own-missed|unlabelled|labelled-wrong|all]
Before/after: run it with PYTHONPATH pointing at another checkout; the questions are the same.
"""

from __future__ import annotations

import argparse
import csv
import re
from collections import Counter, defaultdict
from dataclasses import dataclass
from pathlib import Path

#: The published AmbiK calibration split, read where it lies (``shared/`` beside the checkout, or beside a folder
#: of worktrees); never copied in.
_SPLIT = Path("shared") / "data" / "ambik_calib_100.csv"
DEFAULT_CSV = next((p / _SPLIT for p in Path(__file__).resolve().parents[1:] if (p / _SPLIT).exists()), _SPLIT)
DEFAULT_LABELS = Path(__file__).parent / "data" / "simulated_user_labels.csv"
VAGUE = (
    "What should I do?",
    "Can you clarify?",
    "Which one?",
    "What do you mean?",
    "Could you be more specific?",
    "What is the weather like today?",
    "Did you enjoy the football match yesterday?",
)
OTHER_ROWS = 3
SCENE_OBJECTS = 2
_LEAD = re.compile(r"^\s*((kitchen\s+)?robot|please)\s*[,:]?\s*(please\s*[,:]?\s*)?", re.I)


@dataclass(frozen=True)
class Probe:
    row: str
    kind: str  # own, propose, other, scene, task, vague, confirm
    question: str
    expect: str  # gold, no (not gold), redirect, confirm
    uncertain: bool = False

    @property
    def off_topic(self) -> bool:
        return self.kind in ("other", "scene", "task")


def read_labels(path: Path) -> dict[tuple[str, str], str]:
    if not path.exists():
        return {}
    with path.open(encoding="utf-8") as fh:
        rows = csv.DictReader(line for line in fh if not line.startswith("#"))
        return {(r["id"], r["question"]): r["label"] for r in rows}


def first_sentence(task: str) -> str:
    sentence = re.split(r"(?<=[.!?])\s", task.strip())[0].rstrip(".!? ")
    sentence = _LEAD.sub("", sentence)
    return sentence[:1].lower() + sentence[1:]


def probes(items: list, words) -> list[Probe]:  # type: ignore[no-untyped-def]
    """Every row's questions, in a fixed order (see the module's docstring)."""
    from ambiforge.detectors.intent import parse_intent

    scenes = {it.id: {o.name.lower() for o in it.environment} for it in items}
    out: list[Probe] = []
    for it in items:
        amb, both = words(it.ambiguous_task), words(it.ambiguous_task) | words(it.unambiguous_direct)
        options = [*it.amb_shortlist, *it.variants, *(a for c in parse_intent(it.user_intent) for a in c.alternatives)]
        option_words = set().union(*(words(o) for o in options)) if options else set()
        own = words(it.question)

        def add(kind: str, question: str, expect: str, uncertain: bool = False, row: str = it.id) -> None:
            out.append(Probe(row, kind, question, expect, uncertain))

        add("own", it.question, "gold")
        proposed: set[str] = set()
        for opt in options:
            name = opt.strip().lstrip("-").split("|")[0].strip()
            if not name or opt.strip().startswith("-") or name.lower() in proposed or words(name) <= amb:
                continue
            proposed.add(name.lower())
            add("propose", f"Should I use the {name}?", "gold")
        others = sorted(
            (j for j in items if j.id != it.id and scenes[j.id] & scenes[it.id]),
            key=lambda j: (-len(scenes[j.id] & scenes[it.id]), int(j.id) if j.id.isdigit() else 0, j.id),
        )
        for j in others[:OTHER_ROWS]:
            add("other", j.question, "no", uncertain=bool(words(j.question) & option_words))
        names = sorted({o.name for o in it.environment})
        untouched = [n for n in names if not words(n) & both and not _head(n, words) & option_words]
        untouched = untouched[:SCENE_OBJECTS]
        for name in untouched:
            add("scene", f"Where is the {name} kept?", "no", uncertain=bool(words(name) & option_words))
            add("scene", f"Should I also wash the {name}?", "no", uncertain=bool(words(name) & option_words))
        in_task = [n for n in names if words(n) and words(n) <= amb and not _head(n, words) & option_words]
        for name in in_task[:SCENE_OBJECTS]:
            where = "where" in it.question.lower()
            add("task", f"Where is the {name} kept?", "no", uncertain=where and bool(words(name) & own))
        for q in VAGUE:
            add("vague", q, "redirect")
        add("confirm", f"Should I {first_sentence(it.ambiguous_task)}?", "confirm")
    return out


def _head(name: str, words) -> set[str]:  # type: ignore[no-untyped-def]
    """The object's head noun ("plate" of "ceramic salad plate"), as :func:`words` spells it."""
    found = [w for w in name.split() if words(w)]
    return words(found[-1]) if found else set()


def share(hits: int, n: int) -> str:
    return f"{hits}/{n} = {hits / n:.0%}" if n else "-"


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--csv", type=Path, default=DEFAULT_CSV)
    parser.add_argument("--labels", type=Path, default=DEFAULT_LABELS)
    parser.add_argument("--offline", type=int, default=600, help="offline pairs whose own question is put too")
    parser.add_argument("--show", choices=("off-topic-gold", "own-missed", "unlabelled", "labelled-wrong", "all"))
    args = parser.parse_args()

    from ambiforge.ambik import read_ambik_csv

    try:
        from ambiforge.detectors.open_slot import words
    except ImportError:  # a checkout from before the open-slot rule (to measure "before" with the same questions)
        from ambiforge.detectors.simulated_user import words  # type: ignore[attr-defined,no-redef]
    from ambiforge.detectors.simulated_user import CONFIRM, GOLD, REDIRECT, hidden_from_item, keyword_reply

    items = read_ambik_csv(args.csv)
    by_id = {it.id: it for it in items}
    labels = read_labels(args.labels)
    hidden = {it.id: hidden_from_item(it) for it in items}
    results = []
    for p in probes(items, words):
        label = labels.get((p.row, p.question))
        expect = label if label is not None and p.expect in ("gold", "no") else p.expect
        kind = keyword_reply(p.question, hidden[p.row]).kind
        results.append((p, expect, label, kind))

    print(f"{len(items)} rows, {len(results)} questions; labels: {args.labels} ({len(labels)})")
    groups: dict[str, list] = defaultdict(list)
    for r in results:
        groups[by_id[r[0].row].ambiguity_type].append(r)
        groups["all"].append(r)
    header = f"{'type':<24}{'own gold':>16}{'propose gold':>17}{'off-topic gold':>17}{'vague redirect':>17}"
    print(header + f"{'confirm':>15}{'confirm->gold':>15}")
    for name in [*sorted(k for k in groups if k != "all"), "all"]:
        rs = groups[name]

        def count(kind: str, want: str, rs: list = rs) -> str:
            sel = [r for r in rs if r[0].kind == kind or (kind == "off" and r[0].off_topic)]
            sel = [r for r in sel if kind not in ("propose", "off") or r[1] == ("gold" if kind == "propose" else "no")]
            return share(sum(1 for r in sel if r[3] == want), len(sel))

        print(
            f"{name:<24}{count('own', GOLD):>16}{count('propose', GOLD):>17}{count('off', GOLD):>17}"
            f"{count('vague', REDIRECT):>17}{count('confirm', CONFIRM):>15}{count('confirm', GOLD):>15}"
        )
    off = [r for r in results if r[0].off_topic and r[1] == "no"]
    by_kind = Counter(r[0].kind for r in off)
    gold_by_kind = Counter(r[0].kind for r in off if r[3] == GOLD)
    kinds = ", ".join(f"{k} {share(gold_by_kind[k], n)} gold" for k, n in by_kind.items())
    print(f"off-topic by construction: {kinds}")

    def pr(rs: list, what: str) -> None:
        tp = sum(1 for r in rs if r[1] == "gold" and r[3] == GOLD)
        fp = sum(1 for r in rs if r[1] != "gold" and r[3] == GOLD)
        fn = sum(1 for r in rs if r[1] == "gold" and r[3] != GOLD)
        p = f"{tp / (tp + fp):.1%}" if tp + fp else "-"
        rc = f"{tp / (tp + fn):.1%}" if tp + fn else "-"
        print(f"gold decision vs {what}: precision {p} ({tp}/{tp + fp}), recall {rc} ({tp}/{tp + fn}), n={len(rs)}")

    pr([r for r in results if r[2] is not None], "hand labels")
    pr(results, "all expectations")
    if args.offline:
        from ambiforge.ambiguity import default_mix
        from ambiforge.catalog import load_catalog
        from ambiforge.generation.mix import type_sequence
        from ambiforge.generation.offline import OfflineGenerator

        gen = OfflineGenerator(load_catalog(), 1, "bench")
        pairs = [gen.generate(i, t)[0] for i, t in enumerate(type_sequence(args.offline, default_mix(), 1))]
        got = sum(keyword_reply(p.question, hidden_from_item(p)).kind == GOLD for p in pairs)
        print(f"offline generator (seed 1): own question gets gold {share(got, len(pairs))}")
    unlabelled = [r for r in results if r[0].uncertain and r[2] is None]
    print(f"uncertain questions: {sum(1 for r in results if r[0].uncertain)}, without a hand label: {len(unlabelled)}")

    show = {
        "off-topic-gold": [r for r in off if r[3] == GOLD],
        "own-missed": [r for r in results if r[0].kind == "own" and r[3] != GOLD],
        "unlabelled": unlabelled,
        "labelled-wrong": [r for r in results if r[2] is not None and (r[3] == GOLD) != (r[2] == "gold")],
        "all": results,
    }.get(args.show or "", [])
    for p, expect, _label, kind in show:
        it = by_id[p.row]
        reason = keyword_reply(p.question, hidden[p.row]).reason
        print(f"{p.row:>4} {it.ambiguity_type[:5]} {p.kind:<7} expect={expect:<8} got={kind:<8} {p.question}")
        print(f"{'':11}why: {reason}")
        print(f"{'':11}amb: {it.ambiguous_task[:150]}")
        print(f"{'':11}own: {it.question} | intent {it.user_intent} | options {it.amb_shortlist or it.variants}")


if __name__ == "__main__":
    main()
