"""The object catalog: groups of similar kitchen objects and foods, with the attributes generation needs."""

from ambiforge.catalog.loader import (
    APPLIANCES,
    Appliance,
    Catalog,
    CatalogObject,
    Group,
    cached_catalog,
    default_catalog_path,
    load_catalog,
)

__all__ = [
    "APPLIANCES",
    "Appliance",
    "Catalog",
    "CatalogObject",
    "Group",
    "cached_catalog",
    "default_catalog_path",
    "load_catalog",
]
