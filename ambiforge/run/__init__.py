"""The run folder ``raw/<run-id>/`` in one place.

- :mod:`~ambiforge.run.layout`: run ids and where each file of a run lives;
- :mod:`~ambiforge.engine.state`: ``state.json`` (which stage is running or done) and the options guard;
- :mod:`~ambiforge.engine.fingerprint`: the build's fingerprint, from its options and stage versions;
- :mod:`~ambiforge.engine.checkpoints`: generation batches and outcomes on disk, for resuming;
- :mod:`~ambiforge.engine.summary`: the files a finished build writes (items, rejections, ``summary.json``);
- :mod:`~ambiforge.engine.report`: what a summary says to a person (Markdown, worst items).

Import the submodules; this package imports nothing so that any of them stays cheap to load.
"""
