"""SG-CoT (the fourth seed): a planner that queries the scene graph turn by turn with two retrieval functions,
then acts or asks with a tag naming the ambiguity. :mod:`.tools` holds the functions it may call and how
their results read, :mod:`.loop` one episode, :mod:`.scoring` its SR / CQR and cost figures; the detector
that plugs it into ``ambiforge eval`` is :mod:`ambiforge.detectors.methods.sgcot`."""
