"""What each of the judge's checks means to a maintainer: the names are listed once, with the ``[judge]``
section that configures their severity (:data:`ambiforge.config.judge.FLAGS`).

Every check is a warning by default: a debate of small models agrees with people on such questions only
partly (76.7% in the seed paper), so until the review report's kappa between judge and reviewers shows it
can be trusted on a dataset, the judge pre-screens and annotators decide; and a pair rejected by the judge
never reaches review, so its agreement could not be measured. A maintainer who has seen a good kappa raises
a check to ``"error"`` in ``[judge] severity``, and the stage then rejects the pairs that fail it, as an
error rule of the validation gate does.
"""

from __future__ import annotations

__all__ = ["CHECKS"]

#: what a check means, for the report and docs/judge.md (a check without an entry shows its name only)
CHECKS: dict[str, str] = {
    "clear_judged_ambiguous": "the clear task was judged ambiguous by the debates",
    "ambiguous_judged_clear": "the ambiguous task was judged clear by the debates",
    "question_not_answered": "the simulated user did not give the gold answer to the item's own question",
    "answer_does_not_resolve": "the answer does not let a planner resolve the clear task's step",
    "debate_error": "a debate ended on an unusable reply or a failed call",
}
