"""Reading and writing items: JSONL and Parquet (explicit Arrow schema), atomically."""

from ambiforge.storage.arrow_schema import ITEM_ARROW_SCHEMA, items_to_table, table_to_records
from ambiforge.storage.items import read_items, read_records, write_items_jsonl, write_items_parquet

__all__ = [
    "ITEM_ARROW_SCHEMA",
    "items_to_table",
    "read_items",
    "read_records",
    "table_to_records",
    "write_items_jsonl",
    "write_items_parquet",
]
