"""What ambiguity detectors share, below both the build's judge stage and ``ambiforge eval``: the model
protocol (:mod:`.model`), the unit a detector scores (:mod:`.tasks`), the prompts, AmbiK's intent semantics
(:mod:`.intent`), conformal calibration, the metrics, the debate, the dialogue and its simulated user, and
the methods (:mod:`.methods`)."""
