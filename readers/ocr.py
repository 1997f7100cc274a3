"""Local OCR with rapidocr 3 and the PP-OCRv6 models inside its wheel, so it works offline.

The models are named by their paths in the installed package: rapidocr only downloads a model
when it is given none, so nothing is fetched at run time (``test_figures`` reads with the network
namespace empty to prove it).
"""

from __future__ import annotations

import threading
from importlib.metadata import version
from pathlib import Path

from .figures import OCR_MAX_SIDE

MODELS = ("PP-OCRv6_det_small.onnx", "ch_ppocr_mobile_v2.0_cls_mobile.onnx", "PP-OCRv6_rec_small.onnx")
ENGINE_VERSION = f"rapidocr-{version('rapidocr')}/{'+'.join(MODELS)}/{OCR_MAX_SIDE}px"  # part of each cached OCR result's key
_engine = None
_lock = threading.Lock()


def _build():
    import rapidocr
    from rapidocr import RapidOCR

    models = Path(rapidocr.__file__).parent / "models"
    detect, classify, recognise = (str(models / name) for name in MODELS)
    return RapidOCR(params={
        "Global.log_level": "warning",
        "Global.max_side_len": OCR_MAX_SIDE,  # the default 2000 px shrinks a 300 dpi page and loses small print
        "Det.model_path": detect, "Cls.model_path": classify, "Rec.model_path": recognise,
    })


def _lines(boxes, texts) -> str:
    """Join rapidocr's boxes (already sorted top to bottom, left to right) into lines of text.

    A box much taller than wide holds text turned on its side (an axis title, a sidebar): it is a
    line of its own, neither joined to the words beside it nor they to it.
    """
    lines: list[tuple[float, float, bool, list[str]]] = []
    for box, text in zip(boxes, texts):
        xs, ys = [x for x, _ in box], [y for _, y in box]
        top, bottom = min(ys), max(ys)
        upright = bottom - top <= 2 * (max(xs) - min(xs))
        if upright and lines and lines[-1][2] and lines[-1][0] < (top + bottom) / 2 < lines[-1][1]:
            lines[-1][3].append(text)
        else:
            lines.append((top, bottom, upright, [text]))
    return "\n".join(" ".join(texts) for *_, texts in lines)


def read_text(image: bytes) -> str:
    """The text rapidocr finds in ``image`` (PNG or JPEG bytes), in reading order; "" if none."""
    global _engine
    # One engine per process, loaded on first use; one image at a time, since onnxruntime
    # already spreads a single image over every core.
    with _lock:
        if _engine is None:
            _engine = _build()
        found = _engine(image)
    if found.boxes is None or found.txts is None:
        return ""
    return _lines(found.boxes.tolist(), found.txts)
