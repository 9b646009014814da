"""The published AmbiK CSV format: import into items, export back (cell for cell when unchanged)."""

from ambiforge.ambik.csv_io import AMBIK_COLUMNS, read_ambik_csv, write_ambik_csv

__all__ = ["AMBIK_COLUMNS", "read_ambik_csv", "write_ambik_csv"]
