"""Prefect flows: orchestration only. Each stage's logic lives in ``ambiforge/``; a flow wires stages into
tasks with names that read well in the Prefect UI."""
