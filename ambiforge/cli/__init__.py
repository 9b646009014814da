"""The ``ambiforge`` command line: one module per command, registered in :mod:`ambiforge.cli.main`."""
