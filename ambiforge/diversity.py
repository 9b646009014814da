"""How varied a dataset is: distinct n-grams, vocabulary, task length, plan lengths, where ambiguity ends,
and how often one paraphrase pattern recurs.

Pure functions over items, so a build summary, the validation report and ``bench/diversity.py`` compute the
same figures for generated items and for a reference dataset (the AmbiK calibration split read with
:func:`ambiforge.ambik.csv_io.read_ambik_csv`). Figures depend only on the texts, never on the generator.

- ``distinct_n``: distinct n-grams / all n-grams of the unambiguous tasks (n-grams do not cross tasks);
- ``vocabulary``: distinct words of the unambiguous tasks;
- ``paraphrase_top_share``: the share of items whose paraphrase pattern (the words the indirect task adds
  to the direct one, in order) is the most common one; a generator with one stock rewording scores high;
- ``repeats``: on the first :data:`SAMPLE` items (the figures that depend on the sample size are compared
  at one size): vocabulary, distinct 3-grams, the share of tasks that open or close with the most common
  sentence (the frames a template generator reuses), the number of distinct openers, and the 5-grams found
  in the most tasks (the template showing through; 5-grams with a word of a fixture's name, "the kitchen
  table", are left out: every kitchen task names them).

Words are lower-cased runs of ``[a-z']`` (digits are not words), the same for generated and reference data.
"""

from __future__ import annotations

import json
import random
import re
import statistics
from collections import Counter
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

from ambiforge.catalog import APPLIANCES
from ambiforge.models import Item

_TOKEN = re.compile(r"[a-z']+")
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+")
#: Items the size-dependent figures of ``repeats`` are measured on (issue 29 compares 500 tasks).
SAMPLE = 500
#: Repeated 5-grams listed (and plotted) in ``repeats``.
TOP_NGRAMS = 10
#: Words of the fixtures' names (every kitchen has them): a 5-gram with one of them is not a template's.
FIXTURE_WORDS = frozenset(w for name in APPLIANCES for w in name.split())
#: ``end_of_ambiguity`` buckets reported (the last one is "this step or later").
EOA_BUCKETS = ("0", "1", "2", "3+")


def tokens(text: str) -> list[str]:
    return _TOKEN.findall(text.lower())


def text_hash(text: str | tuple[str, ...]) -> int:
    """A text's (or an n-gram's) 64-bit hash, for counting distinct ones in one process: a set of these
    costs about 70 bytes an entry where the n-grams themselves, a tuple of fresh strings each, cost 250 or
    more, and the count stays exact unless two collide (odds of about 1 in 10^7 at a million distinct
    n-grams). Python's own hash: the sets are counted, never saved or compared across processes."""
    return hash(text)


def distinct_n(texts: Iterable[str], n: int) -> float:
    """Distinct n-grams over all n-grams, each text on its own (0.0 when no text has n words)."""
    grams: list[tuple[str, ...]] = []
    for text in texts:
        toks = tokens(text)
        grams.extend(tuple(toks[i : i + n]) for i in range(len(toks) - n + 1))
    return round(len(set(grams)) / len(grams), 4) if grams else 0.0


def vocabulary(texts: Iterable[str]) -> int:
    return len({t for text in texts for t in tokens(text)})


def mean_words(texts: Sequence[str]) -> float:
    return round(statistics.fmean(len(tokens(t)) for t in texts), 2) if texts else 0.0


def paraphrase_pattern(direct: str, indirect: str) -> str:
    """The words ``indirect`` adds to ``direct``, in order, each once: the shape of the rewording."""
    have = set(tokens(direct))
    return " ".join(dict.fromkeys(t for t in tokens(indirect) if t not in have))


def sentences(text: str) -> list[str]:
    """The sentences of a task, as written (split after . ! ? followed by a space)."""
    return [x for x in _SENTENCE_END.split(text.strip()) if x]


def opener_and_closing(text: str) -> tuple[str | None, str | None]:
    """The first and last sentence of a task of several sentences, lower-cased words only (None for a
    one-sentence task: its one sentence is the request itself, not a frame around it)."""
    parts = sentences(text)
    if len(parts) < 2:
        return None, None
    return " ".join(tokens(parts[0])), " ".join(tokens(parts[-1]))


def counted_grams(text: str, n: int = 5) -> set[tuple[str, ...]]:
    """The distinct n-grams of one task that no fixture's name is part of (each counts once per task)."""
    toks = tokens(text)
    grams = zip(*(toks[i:] for i in range(n)), strict=False)
    return {g for g in grams if FIXTURE_WORDS.isdisjoint(g)}


class Repeats:
    """What repeats across tasks, on the first :data:`SAMPLE` items: the most common opening and closing
    sentence, the 5-grams in most tasks, and the vocabulary and distinct 3-grams at that size."""

    def __init__(self, size: int = SAMPLE) -> None:
        self.size = size
        self.items = 0
        self.openers: Counter[str] = Counter()
        self.closings: Counter[str] = Counter()
        self.grams: Counter[tuple[str, ...]] = Counter()
        self.words: set[str] = set()
        self.triples: set[tuple[str, str, str]] = set()
        self.triple_count = 0

    def add(self, text: str) -> None:
        if self.items >= self.size:
            return
        self.items += 1
        opener, closing = opener_and_closing(text)
        if opener is not None:
            self.openers[opener] += 1
            self.closings[closing or ""] += 1
        self.grams.update(counted_grams(text))
        toks = tokens(text)
        self.words.update(toks)
        self.triples.update(zip(toks, toks[1:], toks[2:], strict=False))
        self.triple_count += max(len(toks) - 2, 0)

    def result(self) -> dict[str, Any]:
        n = self.items or 1

        def top(counter: Counter[str]) -> tuple[str, float]:
            text, count = counter.most_common(1)[0] if counter else ("", 0)
            return text, round(count / n, 4)

        opener, opener_share = top(self.openers)
        closing, closing_share = top(self.closings)
        grams = [[" ".join(g), round(c / n, 4)] for g, c in _most_common(self.grams, TOP_NGRAMS)]
        return {
            "items": self.items,
            "vocabulary": len(self.words),
            "distinct_3": round(len(self.triples) / self.triple_count, 4) if self.triple_count else 0.0,
            "opener_types": len(self.openers),
            "opener_top": opener,
            "opener_top_share": opener_share,
            "closing_top": closing,
            "closing_top_share": closing_share,
            "ngram5_top_share": grams[0][1] if grams else 0.0,
            "ngram5_top": grams,
        }


def _most_common(counter: Counter[tuple[str, ...]], k: int) -> list[tuple[tuple[str, ...], int]]:
    """The ``k`` most common entries, ties broken by the n-gram (stable across runs and Python versions)."""
    return sorted(counter.items(), key=lambda kv: (-kv[1], kv[0]))[:k]


def eoa_distribution(values: Iterable[int]) -> dict[str, float]:
    counts = Counter(str(v) if v < 3 else "3+" for v in values)
    n = sum(counts.values()) or 1
    return {b: round(counts.get(b, 0) / n, 4) for b in EOA_BUCKETS}


def histogram(values: Iterable[int]) -> dict[str, int]:
    counts = Counter(values)
    return {str(k): counts[k] for k in sorted(counts)}


class Figures:
    """The diversity figures accumulated one item at a time (a release of a million items never holds them
    all): the sets of n-grams and counters grow with the distinct texts, not with the items.

    Each distinct 2- and 3-gram is held as its :func:`text_hash` (the words themselves, for the vocabulary,
    are few). On offline builds that is about 0.56 KB an item (the n-grams as tuples of strings: 1.3 KB),
    so 56 MB at 100,000 items, and the figures stay exact. A HyperLogLog sketch would hold a few KB
    whatever the size, but its estimate (about 1% off at 16,384 registers) moves the fourth decimal the
    report prints and compares with a reference dataset of a few hundred items; exact counts within the
    memory a build has are worth more than flat memory here."""

    def __init__(self) -> None:
        self.items = 0
        self.words: set[str] = set()  # the 1-grams, as words
        self.pairs: set[int] = set()
        self.triples: set[int] = set()
        self.word_count = 0
        self.pair_count = 0
        self.triple_count = 0
        self.question_grams: set[int] = set()
        self.question_gram_count = 0
        self.patterns: Counter[str] = Counter()
        self.steps: Counter[int] = Counter()
        self.eoa: Counter[str] = Counter()
        self.repeats = Repeats()

    def add(self, item: Item) -> None:
        self.items += 1
        self.repeats.add(item.unambiguous_direct)
        toks = tokens(item.unambiguous_direct)
        n = len(toks)
        self.word_count += n
        self.words.update(toks)
        self.pairs.update(map(hash, zip(toks, toks[1:], strict=False)))  # text_hash, without a call an n-gram
        self.triples.update(map(hash, zip(toks, toks[1:], toks[2:], strict=False)))
        self.pair_count += max(n - 1, 0)
        self.triple_count += max(n - 2, 0)
        q = tokens(item.question)
        self.question_grams.update(map(hash, zip(q, q[1:], q[2:], strict=False)))
        self.question_gram_count += max(len(q) - 2, 0)
        self.patterns[paraphrase_pattern(item.unambiguous_direct, item.unambiguous_indirect)] += 1
        self.steps[len(item.plan_for_clear_task)] += 1
        v = item.end_of_ambiguity
        self.eoa[str(v) if v < 3 else "3+"] += 1

    def result(self) -> dict[str, Any]:
        """The same dict :func:`figures` returns (means as sum / count, which is what ``fmean`` computes)."""
        n = self.items

        def share(count: int, total: int) -> float:
            return round(count / total, 4) if total else 0.0

        top, top_count = self.patterns.most_common(1)[0] if self.patterns else ("", 0)
        step_total = sum(k * c for k, c in self.steps.items())
        eoa_n = sum(self.eoa.values()) or 1
        words = self.word_count
        return {
            "items": n,
            "words_per_task": round(words / n, 2) if n else 0.0,
            "vocabulary": len(self.words),
            "distinct_1": share(len(self.words), words),
            "distinct_2": share(len(self.pairs), self.pair_count),
            "distinct_3": share(len(self.triples), self.triple_count),
            "question_distinct_3": share(len(self.question_grams), self.question_gram_count),
            "plan_steps_mean": round(step_total / n, 2) if n else 0.0,
            "plan_steps": {str(k): self.steps[k] for k in sorted(self.steps)},
            "end_of_ambiguity": {b: round(self.eoa.get(b, 0) / eoa_n, 4) for b in EOA_BUCKETS},
            "paraphrase_top_share": round(top_count / n, 4) if n else 0.0,
            "paraphrase_top_pattern": top,
            "repeats": self.repeats.result(),
        }


def figures(items: Iterable[Item]) -> dict[str, Any]:
    """The diversity figures of ``items`` (JSON-ready)."""
    acc = Figures()
    for item in items:
        acc.add(item)
    return acc.result()


def sample(items: Sequence[Item], n: int, seed: int = 0) -> list[Item]:
    """``n`` items drawn without replacement (all when fewer): distinct-n falls as a sample grows, so
    datasets are compared on samples of equal size."""
    if len(items) <= n:
        return list(items)
    return random.Random(seed).sample(list(items), n)


#: Figures compared side by side (name, label).
COMPARED: tuple[tuple[str, str], ...] = (
    ("words_per_task", "words per unambiguous task"),
    ("vocabulary", "vocabulary of the unambiguous tasks"),
    ("distinct_2", "distinct 2-grams"),
    ("distinct_3", "distinct 3-grams"),
    ("question_distinct_3", "distinct 3-grams of questions"),
    ("plan_steps_mean", "plan steps (mean)"),
    ("paraphrase_top_share", "most common paraphrase pattern (share)"),
)
#: Figures of ``repeats`` compared side by side (name, label): measured on the first ``SAMPLE`` items.
COMPARED_REPEATS: tuple[tuple[str, str], ...] = (
    ("vocabulary", f"vocabulary of the first {SAMPLE} tasks"),
    ("distinct_3", f"distinct 3-grams of the first {SAMPLE} tasks"),
    ("opener_types", "distinct opening sentences"),
    ("opener_top_share", "most common opening sentence (share of tasks)"),
    ("closing_top_share", "most common closing sentence (share of tasks)"),
    ("ngram5_top_share", "most common 5-gram, fixtures aside (share of tasks)"),
)


def compare(ours: Sequence[Item], reference: Sequence[Item], seed: int = 0) -> dict[str, Any]:
    """Figures of both datasets on equal-sized samples: ``{"n", "ours", "reference"}``."""
    n = min(len(ours), len(reference))
    return compare_sample(sample(ours, n, seed), reference, seed)


def sample_positions(count: int, n: int, seed: int = 0) -> list[int]:
    """The positions :func:`sample` draws from ``count`` items, in its order: a dataset too big to hold is
    sampled by reading these positions."""
    return list(range(count)) if count <= n else random.Random(seed).sample(range(count), n)


def compare_sample(ours: Sequence[Item], reference: Sequence[Item], seed: int = 0) -> dict[str, Any]:
    """:func:`compare` with our sample drawn already (``len(ours)`` items, at most the reference's)."""
    n = len(ours)
    return {"n": n, "ours": figures(ours), "reference": figures(sample(reference, n, seed))}


def reference_section(comparison: dict[str, Any], reference_file: str) -> dict[str, Any]:
    """The report's diversity section from a :func:`compare` result."""
    return {
        "n": comparison["n"],
        "reference_file": reference_file,
        "rows": table(comparison),
        "ngrams": comparison["ours"]["repeats"]["ngram5_top"],
    }


def table(comparison: dict[str, Any]) -> list[tuple[str, str, str]]:
    """Rows (label, ours, reference) for printing; the eoa distribution as 0 / 1 / 2 / 3+ shares."""
    ours, ref = comparison["ours"], comparison["reference"]
    rows = [(label, str(ours[key]), str(ref[key])) for key, label in COMPARED]

    def eoa(f: dict[str, Any]) -> str:
        return " / ".join(f"{f['end_of_ambiguity'][b]:.0%}" for b in EOA_BUCKETS)

    rows.append(("end_of_ambiguity at step 0 / 1 / 2 / 3+", eoa(ours), eoa(ref)))
    rows += [(label, str(ours["repeats"][key]), str(ref["repeats"][key])) for key, label in COMPARED_REPEATS]
    return rows


def report_section(
    items: Sequence[Item], reference: Sequence[Item] | None = None, reference_file: str = ""
) -> dict[str, Any]:
    """What the validation report shows: rows (label, ours, reference or "") of the figures, on
    equal-sized samples when a reference dataset is given (distinct-n falls as a sample grows)."""
    if reference:
        return reference_section(compare(items, reference), reference_file)
    return report_section_of(figures(items))


def report_section_of(mine: dict[str, Any]) -> dict[str, Any]:
    """:func:`report_section` without a reference, from figures already computed (a streamed validate
    gathers them as it reads)."""
    rows = [(label, str(mine[key]), "") for key, label in COMPARED]
    rows.append(
        (
            "end_of_ambiguity at step 0 / 1 / 2 / 3+",
            " / ".join(f"{mine['end_of_ambiguity'][b]:.0%}" for b in EOA_BUCKETS),
            "",
        )
    )
    rows += [(label, str(mine["repeats"][key]), "") for key, label in COMPARED_REPEATS]
    return {"n": mine["items"], "reference_file": "", "rows": rows, "ngrams": mine["repeats"]["ngram5_top"]}


def read_reference(path: str | Path) -> list[Item]:
    """A reference dataset in AmbiK's CSV layout (InputError naming the file/row when it is not)."""
    from ambiforge.ambik.csv_io import read_ambik_csv

    return read_ambik_csv(path)


def attach_reference(summary_path: str | Path, reference: Sequence[Item], reference_path: str) -> dict[str, Any]:
    """Add ``diversity_vs_reference`` (both datasets' figures on equal-sized samples) to a build's
    summary.json, rewritten atomically; returns the section."""
    from ambiforge.atomic import write_json_atomic
    from ambiforge.storage.items import read_items

    summary = json.loads(Path(summary_path).read_text(encoding="utf-8"))
    items = read_items(summary["files"]["items_jsonl"])
    section = {"reference_file": reference_path, **compare(items, reference)}
    summary["diversity_vs_reference"] = section
    write_json_atomic(summary_path, summary)
    return section
