"""Detection methods behind one interface, found through a registry (``METHODS``, entry-point group
``ambiforge.methods``; ``get``, ``names``, ``register``)."""

from ambiforge.detectors.methods.base import (
    METHODS,
    Detection,
    Detector,
    MethodSettings,
    get,
    names,
    register,
    unregister,
)

__all__ = ["METHODS", "Detection", "Detector", "MethodSettings", "get", "names", "register", "unregister"]
