"""Benchmarking ambiguity detection (``ambiforge eval``): detectors, conformal calibration, AmbiK's metrics."""
