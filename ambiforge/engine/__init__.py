"""The engine: which stage runs when (:mod:`.pipeline`), on which executor (:mod:`.local` threads, or the
Prefect tasks that ``flows/`` hands it), with checkpoints, run state, fingerprint and summary; what the
library needs of an orchestrator and how it finds one (:mod:`.orchestrator`, a registry: the engine never
imports ``flows``); and the runtime helpers a build needs (the warm worker, the Dask limiter and the
workers' stop signals, child processes)."""
