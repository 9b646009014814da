"""Generation: from a sampled scene to an ambiguous/unambiguous pair. ``offline`` is the embedded default."""
