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
    assert rows[-1][0].startswith("end_of_ambiguity") and len(rows) == len(diversity.COMPARED) + 1


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
