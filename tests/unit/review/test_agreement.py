"""Agreement and adjudication against values worked out by hand."""

from __future__ import annotations

import pytest

from ambiforge.generation.offline import OfflineGenerator
from ambiforge.models.item import Annotation
from ambiforge.review.adjudication import adjudicate
from ambiforge.review.agreement import annotator_stats, field_agreement, item_status

A, F, R = "accept", "accept_with_fixes", "reject"
VERDICTS = ["accept", "accept_with_fixes", "reject"]
# Six items, three annotators:
#        a1 a2 a3    counts (A,F,R)   P_i = (sum n^2 - 3) / 6
# i1:    A  A  A     3,0,0            1
# i2:    A  A  A     3,0,0            1
# i3:    A  A  R     2,0,1            1/3
# i4:    R  R  R     0,0,3            1
# i5:    A  R  R     1,0,2            1/3
# i6:    A  F  R     1,1,1            0
MATRIX = {
    "i1": {"a1": A, "a2": A, "a3": A},
    "i2": {"a1": A, "a2": A, "a3": A},
    "i3": {"a1": A, "a2": A, "a3": R},
    "i4": {"a1": R, "a2": R, "a3": R},
    "i5": {"a1": A, "a2": R, "a3": R},
    "i6": {"a1": A, "a2": F, "a3": R},
}


def test_fleiss_alpha_percent_and_cohen_match_hand_computation() -> None:
    result = field_agreement(MATRIX, VERDICTS)
    # P-bar = (1+1+1/3+1+1/3+0)/6 = 11/18; p = (10, 1, 7)/18; P_e = 150/324 = 25/54
    assert result["percent_agreement"] == pytest.approx(100 * 11 / 18, abs=1e-6)
    # kappa = (11/18 - 25/54) / (1 - 25/54) = 8/29
    assert result["fleiss_kappa"] == pytest.approx(8 / 29, abs=1e-6)
    # alpha = 1 - D_o/D_e, D_o = 7/18 (disagreeing ordered pairs 14, /(m-1)=2, /n=18),
    # D_e = (18^2 - 150) / (18*17) = 174/306  ->  alpha = 1 - (7/18)/(174/306) = 55/174
    assert result["krippendorff_alpha"] == pytest.approx(55 / 174, abs=1e-6)
    # Cohen: a1|a2 po 4/6, pe 17/36 -> 7/19; a1|a3 po 3/6, pe 14/36 -> 4/22; a2|a3 po 4/6, pe 14/36 -> 10/22
    assert result["cohen_kappa_pairwise"] == {
        "a1|a2": pytest.approx(7 / 19, abs=1e-6),
        "a1|a3": pytest.approx(4 / 22, abs=1e-6),
        "a2|a3": pytest.approx(10 / 22, abs=1e-6),
    }


def test_per_item_and_per_annotator() -> None:
    assert [item_status(list(r.values())) for r in MATRIX.values()] == [
        "unanimous",
        "unanimous",
        "majority",
        "unanimous",
        "majority",
        "split",
    ]
    assert item_status([A, A]) == "pending"
    stats = annotator_stats(MATRIX)
    # a1 accepts 5 of 6; majority exists on i1..i5; a1 sides with it on i1-i4 -> 4/5
    assert stats["a1"] == {
        "items": 6,
        "accept_rate": pytest.approx(5 / 6),
        "agreement_with_majority": pytest.approx(4 / 5),
    }
    # a2: accepts A,A,A,R,R,F -> 4/6 (F counts as accept); with majority on i1-i5 all -> 5/5
    assert stats["a2"]["accept_rate"] == pytest.approx(4 / 6) and stats["a2"]["agreement_with_majority"] == 1.0


@pytest.fixture(scope="module")
def item(catalog):  # type: ignore[no-untyped-def]
    return OfflineGenerator(catalog, 2, "rev").generate(0, "preferences")[0]


def ann(name: str, verdict: str, type_: str = "preferences", **corrections: str) -> Annotation:
    return Annotation(annotator=name, verdict=verdict, ambiguity_type=type_, corrections=corrections)  # type: ignore[arg-type]


def test_majority_decides_and_agreed_corrections_apply_with_their_authors(item) -> None:  # type: ignore[no-untyped-def]
    out = adjudicate(
        item,
        [
            ann("a1", F, question="Which mug  do you want?"),
            ann("a2", F, question="Which mug do you want?"),
            ann("a3", A, "safety"),
        ],
    )
    assert out.review.status == "majority" and out.review.verdict == F  # type: ignore[union-attr]
    assert out.review.ambiguity_type == "preferences"  # type: ignore[union-attr]
    assert out.question == "Which mug do you want?"
    assert [(c.field, c.annotators) for c in out.review.applied_corrections] == [("question", ["a1", "a2"])]  # type: ignore[union-attr]
    assert out.review.queued_for_adjudication is False  # type: ignore[union-attr]


def test_split_and_conflicting_corrections_go_to_the_queue_and_too_few_stay_pending(item) -> None:  # type: ignore[no-untyped-def]
    split = adjudicate(item, [ann("a1", A), ann("a2", F), ann("a3", R)])
    assert split.review.status == "split" and split.review.verdict is None  # type: ignore[union-attr]
    assert split.review.queued_for_adjudication is True  # type: ignore[union-attr]
    conflict = adjudicate(
        item, [ann("a1", F, answer="The red one."), ann("a2", F, answer="The blue one."), ann("a3", A)]
    )
    assert conflict.answer == item.answer and conflict.review.queued_for_adjudication is True  # type: ignore[union-attr]
    pending = adjudicate(item, [ann("a1", A), ann("a2", A)])
    assert pending.review.status == "pending" and pending.review.verdict is None  # type: ignore[union-attr]
