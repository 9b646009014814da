"""Review decisions carried exactly: the majority type is applied, type splits and correction conflicts
are queued, corrections compare after normalising whitespace and case, the maintainer's decision (verdict,
type, corrected fields) is applied; the labeling config is generated from the type registry."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from ambiforge import ambiguity
from ambiforge.generation.offline import OfflineGenerator
from ambiforge.models.item import Annotation
from ambiforge.review.adjudication import adjudicate, apply_decision, queue_reasons
from ambiforge.review.labeling import RENDERED, render_labeling_config
from ambiforge.review.tasks import ls_task, parse_result, textarea

A, F, R = "accept", "accept_with_fixes", "reject"


@pytest.fixture(scope="module")
def item(catalog):  # type: ignore[no-untyped-def]
    return OfflineGenerator(catalog, 2, "rev").generate(0, "preferences")[0]


def ann(name: str, verdict: str, type_: str = "preferences", **corrections: str) -> Annotation:
    return Annotation(annotator=name, verdict=verdict, ambiguity_type=type_, corrections=corrections)  # type: ignore[arg-type]


def test_majority_type_is_applied_to_the_item_and_recorded(item) -> None:  # type: ignore[no-untyped-def]
    out = adjudicate(item, [ann("a1", A, "safety"), ann("a2", A, "safety"), ann("a3", A)])
    assert out.ambiguity_type == "safety" and out.review.ambiguity_type == "safety"  # type: ignore[union-attr]
    assert [(c.field, c.value, c.annotators) for c in out.review.applied_corrections] == [  # type: ignore[union-attr]
        ("ambiguity_type", "safety", ["a1", "a2"])
    ]
    assert out.review.queued_for_adjudication is False  # type: ignore[union-attr]
    rejected = adjudicate(item, [ann("a1", R, "safety"), ann("a2", R, "safety"), ann("a3", A)])
    assert rejected.ambiguity_type == "preferences"  # a rejected item keeps its data as it was


def test_three_way_type_split_and_different_corrections_are_queued(item) -> None:  # type: ignore[no-untyped-def]
    anns = [ann("a1", A), ann("a2", A, "safety"), ann("a3", A, "common_sense_knowledge")]
    split = adjudicate(item, anns)
    assert split.review.status == "unanimous" and split.review.queued_for_adjudication is True  # type: ignore[union-attr]
    assert split.ambiguity_type == item.ambiguity_type
    assert queue_reasons(anns) == ["type split: common_sense_knowledge, preferences, safety"]
    conflict = [ann("a1", F, question="Which one?"), ann("a2", F, question="Which mug?"), ann("a3", A)]
    assert queue_reasons(conflict) == ["different corrections of question"]
    rejected = [ann("a1", R), ann("a2", R, "safety"), ann("a3", A, "common_sense_knowledge")]
    assert queue_reasons(rejected) == [] and adjudicate(item, rejected).review.queued_for_adjudication is False  # type: ignore[union-attr]


def test_corrections_agree_after_normalising_whitespace_and_case(item) -> None:  # type: ignore[no-untyped-def]
    out = adjudicate(item, [ann("a1", F, answer="The  RED mug."), ann("a2", F, answer="the red mug. "), ann("a3", A)])
    assert out.answer == "The RED mug." and out.review.queued_for_adjudication is False  # type: ignore[union-attr]


def test_an_unchanged_prefilled_box_is_no_correction(item) -> None:  # type: ignore[no-untyped-def]
    shown = ls_task(item)["data"]
    assert shown["question"] == item.question and shown["amb_shortlist"] == ", ".join(item.amb_shortlist)
    result = [
        textarea("fix_question", "  " + item.question.upper() + " "),
        textarea("fix_answer", "Something else."),
        textarea("fix_amb_shortlist", shown["amb_shortlist"]),
    ]
    assert parse_result(result, shown)["corrections"] == {"answer": "Something else."}


def test_the_maintainer_decides_verdict_type_and_fields(item) -> None:  # type: ignore[no-untyped-def]
    queued = adjudicate(item, [ann("a1", F, question="Which one?"), ann("a2", F, question="Which mug?"), ann("a3", A)])
    decided = apply_decision(
        queued,
        {
            "verdict": "accept_with_fixes",
            "ambiguity_type": "safety",
            "corrections": {"question": "Which  mug, please?"},
        },
    )
    assert decided.question == "Which mug, please?" and decided.ambiguity_type == "safety"
    assert (decided.review.status, decided.review.queued_for_adjudication) == ("adjudicated", False)  # type: ignore[union-attr]
    assert {c.field: c.annotators for c in decided.review.applied_corrections} == {  # type: ignore[union-attr]
        "ambiguity_type": ["maintainer"],
        "question": ["maintainer"],
    }


def test_no_prediction_preselects_an_answer(item) -> None:  # type: ignore[no-untyped-def]
    task = ls_task(item)
    assert "predictions" not in task and "Preferences" in task["data"]["pipeline"]


def test_labeling_config_is_generated_from_the_registry(tmp_path: Path) -> None:
    assert RENDERED.read_text(encoding="utf-8") == render_labeling_config()  # `ambiforge review config --write`
    for t in ambiguity.types().values():
        assert f'alias="{t.name}"' in RENDERED.read_text(encoding="utf-8")
    folder = tmp_path / "wrong_tool"
    shutil.copytree(ambiguity.get("safety").folder, folder)
    definition = (folder / "definition.yaml").read_text().replace("name: safety", "name: wrong_tool")
    (folder / "definition.yaml").write_text(definition.replace("label: Safety", "label: Wrong tool"))
    ambiguity.register_folder(folder)
    try:
        config = render_labeling_config()
        assert '<Choice value="Wrong tool" alias="wrong_tool"' in config
        assert '<Choice value="Accept with fixes" alias="accept_with_fixes"' in config
    finally:
        ambiguity.unregister("wrong_tool")


def test_decisions_are_the_same_on_every_pull(item) -> None:  # type: ignore[no-untyped-def]
    anns = [ann("a1", A, "safety"), ann("a2", A, "safety"), ann("a3", A)]
    first = adjudicate(item, anns, shown_type="preferences")
    again = adjudicate(first.model_copy(update={"review": None}), anns, shown_type="preferences")
    assert again == first  # the item already has the majority type; the correction is still recorded
    split = [ann("a1", A), ann("a2", A, "safety"), ann("a3", A, "common_sense_knowledge")]
    decision = {"verdict": "accept", "ambiguity_type": "safety", "corrections": {}}
    decided = apply_decision(adjudicate(item, split, shown_type="preferences"), decision, "preferences")
    redone = apply_decision(adjudicate(decided, split, shown_type="preferences"), decision, "preferences")
    assert redone == decided and decided.ambiguity_type == "safety"
    back = apply_decision(first, {"verdict": "accept", "ambiguity_type": "preferences"}, "preferences")
    assert back.ambiguity_type == "preferences" and back.review.applied_corrections == []  # type: ignore[union-attr]
