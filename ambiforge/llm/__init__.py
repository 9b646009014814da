"""Talking to LLM providers: configuration, SDK providers, prompts, structured replies, retries, limits,
the call log and cache, budget and cost summary. Generation steps live in :mod:`ambiforge.generation.llm`."""
