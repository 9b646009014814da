"""The common_sense_knowledge ambiguity type: this folder (definition.yaml, templates.yaml, prompts/), registered by its
entry point in ``ambiforge.types``."""
