"""The judge stage of a build (``[judge]``): semantic checks of every pair by a multi-agent debate and a
simulated user (the instruments are :mod:`ambiforge.detectors`), stored on the item and in
``judgements.jsonl``, shown to annotators, summarised in the validation report and the release card.

- :mod:`.checks`: the methods and checks, the one list of each;
- :mod:`.config`: the ``[judge]`` section;
- :mod:`.summary`: a ``judge_pair`` result as the item's :class:`~ambiforge.models.Judgement`, and its text;
- :mod:`.stage`: the stage over a run's outcomes;
- :mod:`.report`: the validation report's and the release card's judge sections.
"""
