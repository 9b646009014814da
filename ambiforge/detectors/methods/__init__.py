"""Detection methods behind one interface, found through a registry (``get``, ``names``, ``register``)."""

from ambiforge.detectors.methods.base import (
    Detection,
    Detector,
    MethodSettings,
    get,
    names,
    register,
    unregister,
)

__all__ = ["Detection", "Detector", "MethodSettings", "get", "names", "register", "unregister"]
