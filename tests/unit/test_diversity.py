"""Diversity figures, checked against values computed by hand on tiny inputs."""

from __future__ import annotations

import pytest

from ambiforge import diversity
from ambiforge.generation.offline import OfflineGenerator


def test_distinct_n_vocabulary_and_length_by_hand() -> None:
    texts = ["A b c.", "a b d"]
    # 2-grams: (a b) (b c) (a b) (b d): 3 distinct of 4; 3-grams: 2 of 2; words: a b c d.
    assert diversity.distinct_n(texts, 2) == 0.75
    assert diversity.distinct_n(texts, 3) == 1.0
    assert diversity.distinct_n(["a b"], 3) == 0.0
    assert diversity.vocabulary(texts) == 4
    assert diversity.mean_words(["a b c", "a b"]) == 2.5


def test_paraphrase_pattern_and_eoa_distribution_by_hand() -> None:
    assert diversity.paraphrase_pattern("Bring me the mug.", "Fetch the mug for me, the mug.") == "fetch for"
    assert diversity.eoa_distribution([0, 1, 3, 5]) == {"0": 0.25, "1": 0.25, "2": 0.0, "3+": 0.5}
    assert diversity.histogram([5, 4, 5]) == {"4": 1, "5": 2}


@pytest.fixture
def two_items(catalog):  # type: ignore[no-untyped-def]
    base = OfflineGenerator(catalog, 1, "t").generate(0, "preferences")[0]
    a = base.model_copy(
        update={
            "unambiguous_direct": "Bring me the mug.",
            "unambiguous_indirect": "Fetch the mug.",
            "question": "Which mug is it?",
            "plan_for_clear_task": ["a", "b", "c", "d"],
            "end_of_ambiguity": 0,
        }
    )
    b = base.model_copy(
        update={
            "unambiguous_direct": "Bring me the cup.",
            "unambiguous_indirect": "Fetch the cup.",
            "question": "Which cup is it?",
            "plan_for_clear_task": ["a", "b", "c", "d", "e", "f"],
            "end_of_ambiguity": 4,
        }
    )
    return [a, b]


def test_figures_of_two_items(two_items) -> None:  # type: ignore[no-untyped-def]
    f = diversity.figures(two_items)
    assert f["items"] == 2
    assert f["words_per_task"] == 4.0
    assert f["vocabulary"] == 5  # bring me the mug cup
    assert f["distinct_3"] == 0.75  # (bring me the) twice, (me the mug), (me the cup)
    assert f["plan_steps_mean"] == 5.0 and f["plan_steps"] == {"4": 1, "6": 1}
    assert f["end_of_ambiguity"] == {"0": 0.5, "1": 0.0, "2": 0.0, "3+": 0.5}
    assert f["paraphrase_top_share"] == 1.0 and f["paraphrase_top_pattern"] == "fetch"


def test_compare_uses_equal_sized_samples(two_items) -> None:  # type: ignore[no-untyped-def]
    result = diversity.compare(two_items, two_items[:1])
    assert result["n"] == 1 and result["ours"]["items"] == 1 and result["reference"]["items"] == 1
    rows = diversity.table(result)
    assert rows[len(diversity.COMPARED)][0].startswith("end_of_ambiguity")
    assert len(rows) == len(diversity.COMPARED) + 1 + len(diversity.COMPARED_REPEATS)


def test_a_sample_drawn_by_position_is_the_sample_of_the_list(two_items) -> None:  # type: ignore[no-untyped-def]
    """A build samples its items for the reference comparison by reading positions back from its file."""
    items = [two_items[k % 2].model_copy(update={"id": f"i{k}"}) for k in range(40)]
    for n in (5, 40, 60):
        positions = diversity.sample_positions(len(items), n)
        assert [items[p] for p in positions] == diversity.sample(items, n)
    reference = items[:12]
    drawn = [items[p] for p in diversity.sample_positions(len(items), len(reference))]
    assert diversity.compare_sample(drawn, reference) == diversity.compare(items, reference)


def test_the_validation_report_shows_the_diversity_figures(two_items, tmp_path) -> None:  # type: ignore[no-untyped-def]
    """Every build's report.html has a Diversity table; with a reference dataset, a column for it."""
    from ambiforge.validation import validate_items
    from ambiforge.validation.report import build_report, write_report

    judged = validate_items(two_items)
    report = build_report(judged, None, "test")
    _, html = write_report(report, judged, tmp_path / "plain")
    page = html.read_text(encoding="utf-8")
    assert 'id="diversity"' in page and "words per unambiguous task" in page
    assert report["diversity"]["reference_file"] == "" and all(ref == "" for _, _, ref in report["diversity"]["rows"])

    section = diversity.report_section(two_items, two_items[:1], "ref.csv")
    assert section["n"] == 1 and section["reference_file"] == "ref.csv"
    _, html = write_report(build_report(judged, None, "test"), judged, tmp_path / "ref", diversity=section)
    assert "<th>ref.csv</th>" in html.read_text(encoding="utf-8")


def test_repeats_count_openers_closings_and_5grams_by_hand() -> None:
    """Openers and closings are the first and last sentence of a task of several sentences; a 5-gram counts
    once per task, and not when a word of a fixture's name is in it."""
    r = diversity.Repeats(size=3)
    r.add("Hi there. Put the red mug on the kitchen table now. Thanks!")
    r.add("Hi there. Put the red mug in the box. Cheers.")
    r.add("Put the red mug in the box and put the red mug away.")  # one sentence: no opener
    r.add("Hi there. Never counted.")  # beyond the sample size
    f = r.result()
    assert f["items"] == 3
    assert f["opener_types"] == 1 and f["opener_top"] == "hi there" and f["opener_top_share"] == round(2 / 3, 4)
    assert f["closing_top_share"] == round(1 / 3, 4)
    top = dict((g, s) for g, s in f["ngram5_top"])
    assert top["put the red mug in"] == round(2 / 3, 4)  # twice in the third task, counted once
    assert f["ngram5_top_share"] == round(2 / 3, 4) and f["ngram5_top"][0][1] == round(2 / 3, 4)
    assert not any("kitchen" in g or "table" in g for g in top)  # fixtures aside
    assert diversity.tokens("Don't use 250 ml!") == ["don't", "use", "ml"]


def test_repeats_vocabulary_and_distinct_3_by_hand() -> None:
    r = diversity.Repeats()
    for text in ("a b c d", "a b c e"):
        r.add(text)
    f = r.result()
    assert f["vocabulary"] == 5 and f["distinct_3"] == 0.75  # (a b c) twice, (b c d), (b c e)


def test_a_build_summary_and_report_carry_the_repeats(two_items) -> None:  # type: ignore[no-untyped-def]
    from ambiforge.stats import dataset_stats

    stats = dataset_stats(two_items)
    assert stats["diversity"]["repeats"]["items"] == 2  # type: ignore[index]
    section = diversity.report_section(two_items)
    labels = [label for label, _, _ in section["rows"]]
    assert "most common 5-gram, fixtures aside (share of tasks)" in labels
    assert section["ngrams"] == []  # four-word tasks have no 5-gram
    longer = [i.model_copy(update={"unambiguous_direct": "Put the red mug away now."}) for i in two_items]
    assert diversity.report_section(longer)["ngrams"][0] == ["put the red mug away", 1.0]


def test_streamed_figures_and_stats_are_the_exact_ones_of_the_whole_list(catalog) -> None:  # type: ignore[no-untyped-def]
    """The accumulators keep n-grams and tasks as hashes and lengths as tallies: their figures are still
    the ones computed from the whole lists of texts and lengths."""
    import statistics

    from ambiforge.stats import Stats, tokens

    gen = OfflineGenerator(catalog, 3, "stream")
    items = [gen.generate(i, t)[0] for i, t in enumerate(["preferences", "common_sense_knowledge", "safety"] * 14)]
    items += items[:5]  # repeated tasks: the distinct counts must not count them twice
    stats = Stats()
    for item in items:
        stats.add(item)
    got = stats.result()
    direct = [i.unambiguous_direct for i in items]
    assert got["distinct_unambiguous_tasks"] == len(set(direct)) < len(items)
    assert got["distinct_ambiguous_tasks"] == len({i.ambiguous_task for i in items})
    for key, values in (
        ("plan_steps", [len(i.plan_for_clear_task) for i in items]),
        ("environment_objects", [len(i.environment) for i in items]),
        (
            "words_per_task",
            [len(tokens(t)) for t in direct] + [len(tokens(i.ambiguous_task)) for i in items],
        ),
    ):
        want = {
            "min": min(values),
            "median": statistics.median(values),
            "mean": round(statistics.fmean(values), 2),
            "max": max(values),
        }
        assert got[key] == want, key
    figures = got["diversity"]
    assert figures["distinct_2"] == diversity.distinct_n(direct, 2)  # type: ignore[index]
    assert figures["distinct_3"] == diversity.distinct_n(direct, 3)  # type: ignore[index]
    assert figures["question_distinct_3"] == diversity.distinct_n([i.question for i in items], 3)  # type: ignore[index]
