"""The multiplicity ambiguity type (environment-induced): this folder (definition.yaml, templates.yaml), registered by
its entry point in ``ambiforge.types``."""
