"""The version of ambiforge, apart from the package root so that any module can read it without importing the
public API that the root re-exports."""

__version__ = "0.1.0"
