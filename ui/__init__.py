"""The ReadLens app: layout (``build_ui``), handlers, the named API, the payload view and the report;
and the ``readlens`` command (``ui.command``), which imports Gradio only to start the app."""


def __getattr__(name: str):
    if name in ("build_ui", "launch"):  # Gradio is imported with the layout, when the app is wanted
        from . import layout

        return getattr(layout, name)
    raise AttributeError(f"module 'ui' has no attribute {name!r}")


__all__ = ["build_ui", "launch"]
