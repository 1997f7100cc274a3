"""Local OCR with rapidocr-onnxruntime: its models ship inside the package, so it works offline."""

from __future__ import annotations

import threading

_engine = None
_lock = threading.Lock()


def _lines(found: list) -> str:
    """Join rapidocr's boxes (already sorted top to bottom, left to right) into lines of text."""
    lines: list[tuple[float, float, list[str]]] = []
    for box, text, _score in found:
        top, bottom = min(y for _, y in box), max(y for _, y in box)
        if lines and lines[-1][0] < (top + bottom) / 2 < lines[-1][1]:
            lines[-1][2].append(text)
        else:
            lines.append((top, bottom, [text]))
    return "\n".join(" ".join(texts) for _, _, texts in lines)


def read_text(image: bytes) -> str:
    """The text rapidocr finds in ``image`` (PNG or JPEG bytes), in reading order; "" if none."""
    global _engine
    # One engine per process, loaded on first use; one image at a time, since onnxruntime
    # already spreads a single image over every core.
    with _lock:
        if _engine is None:
            from rapidocr_onnxruntime import RapidOCR

            _engine = RapidOCR()
        found, _ = _engine(image)
    return _lines(found or [])
