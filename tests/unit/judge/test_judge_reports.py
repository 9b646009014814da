"""The judge where maintainers and annotators read it: the validation report, the Label Studio task, the
review report's kappa against reviewers (a table worked out by hand), and the release card."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from ambiforge.generation.offline import OfflineGenerator
from ambiforge.judge.pair import PairJudgement
from ambiforge.models import Item, Review
from ambiforge.review.agreement import human_label, judge_label, judge_vs_reviewers, kappa_table
from ambiforge.review.labeling import render_labeling_config
from ambiforge.review.tasks import task_data
from ambiforge.validation import validate_items
from ambiforge.validation.report import build_report, write_report
from tests.unit.judge.fakes import CLEAR_IS_AMBIGUOUS, GOOD, judged, result


def items(catalog, n: int = 4) -> list[Item]:  # type: ignore[no-untyped-def]
    gen = OfflineGenerator(catalog, 9, "r")
    types = ["preferences", "common_sense_knowledge", "safety", "preferences"]
    return [gen.generate(i, types[i % 4])[0] for i in range(n)]


def test_the_validation_report_counts_flags_and_lists_the_flagged_pair(tmp_path: Path, catalog) -> None:  # type: ignore[no-untyped-def]
    made = items(catalog)
    made = [judged(made[0]), judged(made[1], CLEAR_IS_AMBIGUOUS), judged(made[2]), made[3]]  # the last: not judged
    made = validate_items(made)
    report = build_report(made, None, "run r")
    j = report["judge"]
    assert j["items"] == 3 and j["flagged_items"] == 1 and report["summary"]["judge_flagged"] == 1
    assert j["flags"]["clear_judged_ambiguous"] == {"items": 1, "errors": 0, "warnings": 1}
    assert j["flags"]["ambiguous_judged_clear"]["items"] == 0
    assert [row["id"] for row in j["flagged"]] == [made[1].id]
    clear = j["verdicts"]["clear_task"]
    assert clear["all"] == {"judged": 3, "as_claimed": 2, "other": 1, "undecided": 0, "rate": round(2 / 3, 4)}
    assert clear[made[1].ambiguity_type]["other"] == 1
    assert j["verdicts"]["ambiguous_task"]["all"]["rate"] == 1.0
    assert j["consensus_rate"] == 1.0 and j["debates"] == 18
    assert j["dialogue"] == {"items": 3, "gets_gold_rate": 1.0, "resolves_step_rate": 1.0}
    assert j["config"]["models"] == ["m1", "m2", "m3"]
    assert {"id": made[1].id, "rule": "judge.clear_judged_ambiguous", "severity": "warning"}.items() <= next(
        i for i in report["issues"] if i["rule"].startswith("judge.")
    ).items()
    _, html = write_report(report, made, tmp_path)
    page = html.read_text()
    assert "Pairs the judge flagged" in page and made[1].id in page and "clear_judged_ambiguous" in page
    assert "<p>3 pairs judged with debate, dialogue (openai: m1, m2, m3; at most 5 rounds);\n<b>1</b> flagged." in page
    assert "judge.clear_judged_ambiguous" in (tmp_path / "issues.csv").read_text()


def test_no_judge_section_when_nothing_was_judged(catalog) -> None:  # type: ignore[no-untyped-def]
    report = build_report(validate_items(items(catalog)), None, "run r")
    assert "judge" not in report and "judge_flagged" not in report["summary"]


def test_annotators_see_the_judge_as_information_without_new_choices(catalog) -> None:  # type: ignore[no-untyped-def]
    item = judged(items(catalog)[0], CLEAR_IS_AMBIGUOUS)
    data = task_data(item)
    assert data["judge_shown"].startswith("Judge: ambiguous task judged ambiguous (3/3 debates")
    assert "clear task judged ambiguous (2/3 debates" in data["judge_shown"]
    assert task_data(items(catalog)[0])["judge_shown"] == "Judge: not run"
    config = render_labeling_config()
    assert '<Text name="judge" value="$judge_shown"/>' in config
    assert config.count("<Choices ") == 3  # verdict, type, failed checks: the judge adds none
    committed = (Path(__file__).resolve().parents[3] / "annotation" / "labeling_config.xml").read_text()
    assert committed == config


def test_labels_on_one_scale() -> None:
    cfg = {"outcome": GOOD}
    assert judge_label(judged_item_judgement(**cfg)) == "holds"
    assert judge_label(judged_item_judgement(outcome=CLEAR_IS_AMBIGUOUS)) == "fails"
    undecided = result(("ambiguous", "clear"), ("clear",) * 3)  # a tie on the ambiguous half
    assert judge_label(judged_item_judgement(outcome=undecided)) is None
    assert judge_label(None) is None
    assert [human_label(v) for v in ("accept", "accept_with_fixes", "reject", None)] == [
        "holds",
        "holds",
        "fails",
        None,
    ]


def judged_item_judgement(outcome: PairJudgement) -> object:
    from ambiforge.config.judge import JudgeConfig
    from ambiforge.judge.summary import judgement_of

    return judgement_of(outcome, JudgeConfig(enabled=True, models=("m1", "m2")))


def test_cohens_kappa_on_a_table_worked_out_by_hand() -> None:
    #               reviewers: holds  fails
    # judge holds               6      2
    # judge fails               1      3
    # p_o = 9/12; p_e = (8/12)(7/12) + (4/12)(5/12) = 76/144; kappa = (108 - 76) / (144 - 76) = 32/68 = 8/17
    pairs = [("holds", "holds")] * 6 + [("holds", "fails")] * 2 + [("fails", "holds")] + [("fails", "fails")] * 3
    figures = kappa_table(pairs)
    assert figures["n"] == 12 and figures["cohen_kappa"] == pytest.approx(8 / 17, abs=1e-6)
    assert figures["percent_agreement"] == pytest.approx(75.0)
    assert figures["table"] == {"holds": {"holds": 6, "fails": 2}, "fails": {"holds": 1, "fails": 3}}
    assert kappa_table([("holds", "holds")])["cohen_kappa"] is None  # undefined on one pair


def test_judge_vs_reviewers_counts_only_items_with_both(catalog) -> None:  # type: ignore[no-untyped-def]
    made = items(catalog)
    accept, reject = Review(status="unanimous", verdict="accept"), Review(status="unanimous", verdict="reject")
    reviewed = [
        judged(made[0]).model_copy(update={"review": accept}),  # holds / holds
        judged(made[1], CLEAR_IS_AMBIGUOUS).model_copy(update={"review": reject}),  # fails / fails
        judged(made[2]).model_copy(update={"review": Review(status="split")}),  # no human decision: left out
        made[3].model_copy(update={"review": accept}),  # not judged: left out
    ]
    figures = judge_vs_reviewers(reviewed)
    assert figures is not None and figures["n"] == 2 and figures["judged"] == 3
    assert figures["cohen_kappa"] == pytest.approx(1.0)
    assert judge_vs_reviewers([made[3]]) is None


def test_the_card_states_the_configuration_flags_and_agreement(tmp_path: Path, catalog) -> None:  # type: ignore[no-untyped-def]
    from ambiforge.releases.writer import release
    from tests.unit.release.test_release import make_items, options, write_run

    made = make_items(catalog, 7, 30, "r")
    made = [judged(i, CLEAR_IS_AMBIGUOUS if n % 10 == 0 else GOOD) for n, i in enumerate(made)]
    write_run(tmp_path / "raw", "r", made)
    agreement = {
        "items": 30,
        "verdict": {},
        "ambiguity_type": {},
        "judge_vs_reviewers": kappa_table(
            [("holds", "holds")] * 6 + [("holds", "fails")] * 2 + [("fails", "holds")] + [("fails", "fails")] * 3
        ),
    }
    (tmp_path / "annotation" / "r").mkdir(parents=True)
    (tmp_path / "annotation" / "r" / "agreement.json").write_text(json.dumps(agreement))
    folder = release(options(tmp_path, "1.0.0", ["r"], calibration_size=5))
    card = (folder / "README.md").read_text()
    assert "## Automatic judge" in card
    assert "- methods debate, dialogue; provider openai; models m1, m2, m3; at most 5 rounds per debate" in card
    assert "3 released items carry a judge flag" in card and "clear_judged_ambiguous 3" in card
    assert "Agreement with reviewers, run `r`: Cohen's kappa 0.471 over n = 12 pairs" in card
    manifest = json.loads((folder / "manifest.json").read_text())
    assert manifest["judge"]["flags"]["clear_judged_ambiguous"] == 3 and manifest["judge"]["items"] == 30


def test_the_card_says_when_no_agreement_is_known(tmp_path: Path, catalog) -> None:  # type: ignore[no-untyped-def]
    from ambiforge.releases.writer import release
    from tests.unit.release.test_release import make_items, options, write_run

    write_run(tmp_path / "raw", "r", [judged(i) for i in make_items(catalog, 7, 30, "r")])
    card = (release(options(tmp_path, "1.0.0", ["r"], calibration_size=5)) / "README.md").read_text()
    assert "No agreement with reviewers is known" in card and "0 released items carry a judge flag" in card
    write_run(tmp_path / "raw", "s", make_items(catalog, 8, 30, "s"))
    plain = (release(options(tmp_path, "1.0.1", ["s"], calibration_size=5)) / "README.md").read_text()
    assert "## Automatic judge" not in plain


def test_the_review_report_shows_the_kappa_against_reviewers() -> None:
    from ambiforge.review.report import agreement_html

    field = {"items": 12, "percent_agreement": 80.0, "fleiss_kappa": 0.5, "krippendorff_alpha": 0.5}
    agreement = {
        "run_id": "r",
        "items": 12,
        "annotations_per_item": 3,
        "status_counts": {"unanimous": 12},
        "verdict": field | {"cohen_kappa_pairwise": {}},
        "ambiguity_type": field | {"cohen_kappa_pairwise": {}},
        "annotators": {},
        "judge_vs_reviewers": kappa_table(
            [("holds", "holds")] * 6 + [("holds", "fails")] * 2 + [("fails", "holds")] + [("fails", "fails")] * 3
        )
        | {"judged": 12},
    }
    page = agreement_html(agreement, [])
    assert "Judge and reviewers" in page and "<b>0.471</b>" in page and "n = 12 pairs" in page
    assert "Judge and reviewers" not in agreement_html(
        {k: v for k, v in agreement.items() if k != "judge_vs_reviewers"}, []
    )


PERSONAS = ("a careful inspector", "a hurried cook <fast>", "a pedantic\nlinguist")


def test_the_validation_report_states_the_personas(tmp_path: Path, catalog) -> None:  # type: ignore[no-untyped-def]
    made = validate_items([judged(i, personas=PERSONAS) for i in items(catalog, 2)])
    report = build_report(made, None, "run r")
    assert report["judge"]["config"]["personas"] == list(PERSONAS)
    _, html = write_report(report, made, tmp_path)
    page = html.read_text()
    assert (
        "at most 5 rounds; personas: m1 &ldquo;a careful inspector&rdquo;, m2 &ldquo;a hurried cook &lt;fast&gt;"
        in page
    )
    plain = build_report(validate_items([judged(i) for i in items(catalog, 2)]), None, "run r")
    assert plain["judge"]["config"]["personas"] == []
    _, html = write_report(plain, made, tmp_path / "plain")
    assert "personas" not in html.read_text()


def test_the_card_states_the_personas_per_agent(tmp_path: Path, catalog) -> None:  # type: ignore[no-untyped-def]
    from ambiforge.releases.writer import release
    from tests.unit.release.test_release import make_items, options, write_run

    write_run(tmp_path / "raw", "r", [judged(i, personas=PERSONAS) for i in make_items(catalog, 7, 30, "r")])
    folder = release(options(tmp_path, "1.0.0", ["r"], calibration_size=5))
    card = (folder / "README.md").read_text()
    assert (
        "- methods debate, dialogue; provider openai; models m1, m2, m3; at most 5 rounds per debate; "
        "personas, one per agent:\n"
        '  1. m1: "a careful inspector"\n'
        '  2. m2: "a hurried cook <fast>"\n'
        '  3. m3: "a pedantic linguist"\n'
    ) in card
    manifest = json.loads((folder / "manifest.json").read_text())
    assert manifest["judge"]["configurations"][0]["personas"] == list(PERSONAS)
