"""The judge stage of a build (``[judge]``): semantic checks of every pair by a multi-agent debate and a
simulated user (the instruments are :mod:`ambiforge.detectors`), stored on the item and in
``judgements.jsonl``, shown to annotators, summarised in the validation report and the release card.

- :mod:`.pair`: judging one pair (:func:`~.pair.judge_pair`, a typed :class:`~.pair.PairJudgement`);
- :mod:`.checks`: what each check means (the names, and the ``[judge]`` section with its
  :class:`~ambiforge.config.debate.DebateSettings`, are in :mod:`ambiforge.config.judge`);
- :mod:`.summary`: a ``judge_pair`` result as the item's :class:`~ambiforge.models.Judgement`, and its text;
- :mod:`.stage`: the stage over a run's outcomes;
- :mod:`.report`: the validation report's and the release card's judge sections.
"""
