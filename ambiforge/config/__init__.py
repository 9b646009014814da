"""Configuration as plain pydantic models: ``ambiforge.toml``'s sections (:mod:`.file`), the options a build
runs with (:mod:`.build`), the LLM section (:mod:`.llm`) and the judge's (:mod:`.judge`). Nothing here runs a
stage: the engine and the stages read these models, never the other way round."""
