"""The engine: which stage runs when (:mod:`.pipeline`), on which executor (:mod:`.local` threads, or the
Prefect tasks that ``flows/`` hands it), with checkpoints, run state, fingerprint and summary, and the
runtime helpers a build needs (the warm worker, the Dask limiter, child processes)."""
