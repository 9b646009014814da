"""Kept for importers of the old name: the run folder is :mod:`ambiforge.run` now (layout, state,
fingerprint, checkpoints, summary, report). New code imports from there."""

from ambiforge.run.layout import check_run_id, new_run_id, run_dir
from ambiforge.run.summary import write_run

__all__ = ["check_run_id", "new_run_id", "run_dir", "write_run"]
