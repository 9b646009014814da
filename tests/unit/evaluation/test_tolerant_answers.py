"""Small models follow the answer formats loosely (issue 27): options are read from lettered, inline,
numbered, bulleted or plain lines; Binary's label, when the reply has neither word, from the first token's
log-probabilities; what still cannot be read is a failed task, never a guess."""

from __future__ import annotations

import math

import pytest

from ambiforge.detectors.methods.base import MethodSettings
from ambiforge.detectors.methods.direct import Binary, certainty_from_logprobs
from ambiforge.detectors.methods.options import parse_options
from ambiforge.detectors.model import CallTag, Completion, Messages, NoLogprobsError, TokenLogprobs
from ambiforge.detectors.tasks import halves
from tests.unit.evaluation.fixtures import ITEMS


@pytest.mark.parametrize(
    ("reply", "expected"),
    [
        ("A) Take the mug. B) Wash it. C) Dry it.", ["Take the mug.", "Wash it.", "Dry it."]),
        ("- take the mug\n- wash the mug\n- take the mug", ["take the mug", "wash the mug"]),
        ("Scene: a mug\nTask: wash it\ntake the mug\nwash the mug", ["take the mug", "wash the mug"]),
        ("Your next action is:\n2. Take a mug.\n3. Wash it.", ["Take a mug.", "Wash it."]),
        ("You can't do it.", []),
        ("Options:\nI will not.", []),
    ],
)
def test_options_in_the_forms_small_models_write(reply: str, expected: list[str]) -> None:
    assert [text for _, text in parse_options(reply)] == expected


def test_certainty_by_the_mass_of_the_tokens_that_begin_each_word() -> None:
    assert certainty_from_logprobs({"Unc": math.log(0.4), "C": math.log(0.3), "Cert": math.log(0.2)}) is False
    assert certainty_from_logprobs({" Un": math.log(0.5), "certain": math.log(0.2), "I": math.log(0.3)}) is True
    assert certainty_from_logprobs({"I": -0.1, " will": -2.0}) is None


class Chatty:
    """Replies without a label; ``tops`` are the label call's first-token log-probabilities (None: none)."""

    name = "chatty"

    def __init__(self, tops: dict[str, float] | None) -> None:
        self.tops = tops

    def complete(self, messages: Messages, tag: CallTag, **_: object) -> Completion:
        return Completion("I will pick up the mug." if tag.step.endswith("certainty") else "Take the mug.", tag.step)

    def next_token_logprobs(self, messages: Messages, tag: CallTag, **_: object) -> TokenLogprobs:
        if self.tops is None:
            raise NoLogprobsError("no log-probabilities")
        return TokenLogprobs("I", self.tops, "lp")


def test_binary_reads_its_label_from_logprobs_when_the_reply_has_none() -> None:
    task = halves(ITEMS[0])[0]
    found = Binary().detect(task, Chatty({"Un": math.log(0.6), "Cert": math.log(0.1)}), MethodSettings())
    assert found.error is None and found.asked is True
    assert found.details == {"label": "Uncertain", "label_from": "logprobs"} and found.calls[-1] == "lp"
    nothing = Binary().detect(task, Chatty(None), MethodSettings())
    assert nothing.error and nothing.error.startswith("no Certain/Uncertain")  # still a failed task
    neither = Binary().detect(task, Chatty({"I": -0.1}), MethodSettings())
    assert neither.error and neither.details["label"] is None


def test_the_options_request_is_prefilled_and_a_continuation_is_read_whole() -> None:
    from ambiforge.detectors.methods.knowno import OPTIONS_PREFILL, options_text

    assert OPTIONS_PREFILL == "A)"
    assert parse_options(options_text(" Take the mug.\nB) Wash it.")) == [("A", "Take the mug."), ("B", "Wash it.")]
    assert parse_options(options_text("A) Take the mug.\nB) Wash it.")) == [("A", "Take the mug."), ("B", "Wash it.")]
    assert parse_options(options_text("I am not sure what you mean.")) == []  # a refusal stays no options
