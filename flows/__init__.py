"""Prefect flows: orchestration only. Each stage's logic lives in ``ambiforge/``; a flow wires stages into
tasks with names that read well in the Prefect UI."""

from ambiforge.redaction import install, install_prefect_on_import

# Every flow process (the CLI, ``serve``'s deployment runs, a Dask worker) redacts keys from its logs and
# from the messages of failed runs Prefect stores, however it was started.
install()
install_prefect_on_import()  # when Prefect is first imported: not at `import flows`
