"""Semantic checks of a pair by detectors: a multi-model debate judges whether each half is ambiguous
(:mod:`.debate`), a simulated user answers clarifying questions (:mod:`.simulated_user`), and the gold answer
must resolve the clear plan's step (:mod:`.resolves`). :func:`judge_pair` (:mod:`.pair`) runs them on one
pair for the build's ``judge`` stage; the ``debate`` and ``dialogue`` eval methods use the same parts."""

from ambiforge.judging.pair import FLAGS, METHODS, JudgeSettings, judge_pair

__all__ = ["FLAGS", "METHODS", "JudgeSettings", "judge_pair"]
