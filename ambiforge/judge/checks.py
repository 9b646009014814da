"""The judge's checks and methods: the one list the configuration, the report and the docs read.

A check is a way a pair can fail to mean what it claims (``judge_pair`` in :mod:`ambiforge.judging.pair`
names them in its flags). Every check is a warning by default: a debate of small models agrees with people
on such questions only partly (76.7% in the seed paper), so until the review report's kappa between judge
and reviewers shows it can be trusted on a dataset, the judge pre-screens and annotators decide. A
maintainer who has seen a good kappa raises a check to ``"error"`` in ``[judge] severity`` and the stage
then rejects the pairs that fail it, like an error rule of the validation gate.
"""

from __future__ import annotations

#: the judge's methods: the multi-agent debate over both halves, the simulated user answering the question
METHODS: dict[str, str] = {
    "debate": "three agents debate whether each half is ambiguous in its scene (leader rotates)",
    "dialogue": "the item's question is put to a simulated user holding the answer and intent",
}

#: check -> what it means (the validation report and docs/judge.md show these)
CHECKS: dict[str, str] = {
    "clear_judged_ambiguous": "the clear task was judged ambiguous by the debates",
    "ambiguous_judged_clear": "the ambiguous task was judged clear by the debates",
    "question_not_answered": "the simulated user did not give the gold answer to the item's own question",
    "answer_does_not_resolve": "the answer does not let a planner resolve the clear task's step",
    "debate_error": "a debate ended on an unusable reply or a failed call",
}

SEVERITIES = ("warning", "error")
USERS = ("keyword", "llm")
