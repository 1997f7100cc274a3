"""The ReadLens app: layout (``build_ui``), handlers, the named API, the payload view and the report."""

from .layout import build_ui, launch

__all__ = ["build_ui", "launch"]
