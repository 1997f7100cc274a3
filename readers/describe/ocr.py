"""Local OCR with rapidocr 3 and the PP-OCRv6 models inside its wheel, so it works offline.

The models are named by their paths in the installed package: rapidocr only downloads a model
when it is given none, so nothing is fetched at run time (``test_figures`` reads with the network
namespace empty to prove it).
"""

from __future__ import annotations

import io
import threading
from importlib.metadata import version
from pathlib import Path

import numpy as np
from PIL import Image

from ..pdf.figures import OCR_MAX_SIDE

MODELS = ("PP-OCRv6_det_small.onnx", "ch_ppocr_mobile_v2.0_cls_mobile.onnx", "PP-OCRv6_rec_small.onnx")
READING_VERSION = 3  # raise it when how the text is read changes (turns, lines), so cached results miss
ENGINE_VERSION = f"rapidocr-{version('rapidocr')}/{'+'.join(MODELS)}/{OCR_MAX_SIDE}px/v{READING_VERSION}"  # in each cached result's key
SIDEWAYS_SHARE = 0.5  # of the boxes found, tall ones: the text runs up or down the picture
LOW_CONFIDENCE = 0.985  # mean recognition score: clean upright print reads at 0.99, upside down at 0.97 (the line classifier rights most lines, not all)
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


def _tall(box) -> bool:
    """A box (its corner points) more than twice as tall as it is wide: text turned on its side."""
    xs, ys = [x for x, _ in box], [y for _, y in box]
    return max(ys) - min(ys) > 2 * (max(xs) - min(xs))


def _lines(boxes, texts) -> str:
    """Join rapidocr's boxes (already sorted top to bottom, left to right) into lines of text.

    A box much taller than wide holds text turned on its side (an axis title, a sidebar): it is a
    line of its own, neither joined to the words beside it nor they to it.
    """
    lines: list[tuple[float, float, bool, list[str]]] = []
    for box, text in zip(boxes, texts):
        ys = [y for _, y in box]
        top, bottom = min(ys), max(ys)
        upright = not _tall(box)
        if upright and lines and lines[-1][2] and lines[-1][0] < (top + bottom) / 2 < lines[-1][1]:
            lines[-1][3].append(text)
        else:
            lines.append((top, bottom, upright, [text]))
    return "\n".join(" ".join(texts) for *_, texts in lines)


def _confidence(found) -> float:
    return sum(found.scores) / len(found.scores) if found.txts else 0.0


def _turns(found) -> tuple[int, ...]:
    """The rotations worth a second look: a page scanned sideways shows mostly tall boxes (try a
    quarter turn each way); one upside down reads with low confidence (try a half turn)."""
    if not found.txts:
        return ()
    tall = sum(1 for box in found.boxes if _tall(box))
    if tall > SIDEWAYS_SHARE * len(found.txts):
        return (90, 270)
    return (180,) if _confidence(found) < LOW_CONFIDENCE else ()


def read_text(image: bytes) -> str:
    """The text rapidocr finds in ``image`` (PNG or JPEG bytes), in reading order; "" if none.

    A picture turned on its side or upside down is read the right way up: when the first pass
    looks turned, the turned copies are read too and the most confident reading wins.
    """
    global _engine
    # One engine per process, loaded on first use; one image at a time, since onnxruntime
    # already spreads a single image over every core.
    with _lock:
        if _engine is None:
            _engine = _build()
        found = _engine(image)
        turns = _turns(found)
        if turns:
            with Image.open(io.BytesIO(image)) as picture:
                upright = picture.convert("RGB")
            found = max([found, *(_engine(np.asarray(upright.rotate(angle, expand=True))) for angle in turns)], key=_confidence)
    if not found.txts:
        return ""
    return _lines(found.boxes.tolist(), found.txts)
