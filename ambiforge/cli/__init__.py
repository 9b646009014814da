"""The ``ambiforge`` command line: one module per command, registered in :mod:`ambiforge.cli.main`."""

from ambiforge.cli.common import prefect_defaults

# Here, before any command module imports Prefect: Prefect reads its settings from the environment once,
# when it is imported, so defaults set later (as ``main()`` used to) were silently ignored.
prefect_defaults()
