"""Local OCR with rapidocr 3 and the PP-OCRv6 models inside its wheel, so it works offline.

The models are named by their paths in the installed package: rapidocr only downloads a model
when it is given none, so nothing is fetched at run time (``test_figures`` reads with the network
namespace empty to prove it).

A picture is read at the cost its text needs, with rapidocr's detector and recogniser used one by
one rather than through its whole pipeline:

1. Only the inked part is searched: the white around a figure rendered on a page, or a scan's
   margins, costs nothing.
2. A first detection, at most ``QUICK_SIDE`` pixels long, finds the lines and so the size of the
   print; when its lines are too small there to be measured well (or none is found), one at most
   ``PROBE_SIDE`` pixels long measures them again (a page of large print, such as a notice scanned
   at 300 dpi, is so measured at an eighth of the cost). When the print is too small or too big at
   that scale, detection runs once more at the scale that makes a line's box about ``LINE_HEIGHT``
   pixels high.
3. A picture turned on its side shows mostly tall boxes; whether it is also upside down is told by
   reading a few of its lines as they are, and upside down too unless they read well as they are.
   Only a turned picture is turned and detected again.
4. Each line is cut from the full-size picture and recognised, one at a time: detecting at a
   smaller scale costs the reading no sharpness.
5. A space the recogniser left out between two letters of Latin script ("TOTAL DUE:99.50", "1Msamples";
   it does so after punctuation and digits, and more often as the box round a line varies a little)
   is put back where the line's ink has a gap as wide as a space.
"""

from __future__ import annotations

import threading
from importlib.metadata import version
from pathlib import Path

import numpy as np

from ..pdf.figures import OCR_MAX_SIDE
from ..versions import OCR_VERSION

MODELS = ("PP-OCRv6_det_small.onnx", "PP-OCRv6_rec_small.onnx")
# in each cached result's key
ENGINE_VERSION = f"rapidocr-{version('rapidocr')}/{'+'.join(MODELS)}/{OCR_MAX_SIDE}px/v{OCR_VERSION}"
QUICK_SIDE = 1000  # pixels: the longest side of a first look; a picture no larger is probed whole
PROBE_SIDE = 2000  # pixels: the longest side to look again at when the first look's print is small
SURE_HEIGHT = 16  # pixels: a line's box at least this high in a look is found and measured well (as at 24)
LINE_HEIGHT = 24  # pixels: a line's box this high is detected well (word recall is the same from 16 to 32 px)
SHORT_SIDE = 736  # pixels: rapidocr enlarges a smaller picture to this short side to detect its text
INK = 32  # grey levels from the background colour: a pixel of print
INK_MARGIN = 16  # pixels kept round the ink found, for the boxes round its letters
INK_MARGIN_PAST = INK_MARGIN + 4  # past the last inked pixel judged, which stands for the 4 up to the next
SMALL_PRINT = 25  # percentile of the boxes' heights taken as the smaller print's line height
SIDEWAYS_SHARE = 0.5  # of the boxes found, tall ones: the text runs up or down the picture
SAMPLE_LINES = 8  # the longest lines, read to tell an upside-down picture
# mean score of the sampled lines read as they are, past which they are upright: on 7 pages (Chinese, English,
# screenshots, scans) upright lines scored 0.98-1.0 and the same lines upside down 0.27-0.70
SURE_UPRIGHT = 0.9
SNIPPET = 10  # a sampled line is cut to its middle, this many times as wide as high: enough letters to judge
MIN_SCORE = 0.5  # a recognised line scoring lower is noise (rapidocr's own text_score)
# of a line box's height: a gap in the ink this wide between two letters is a space. On 16 scanned pages and
# 22 invoices, 0.2 split "118" and "Call", 0.4 left "301234" joined; 0.3 split no word and joined none.
SPACE_GAP = 0.3
# A word after a number set small and high (a note's mark: "Table 2 It", "TableFormer 9 architecture")
# stands a narrower gap away: 0.2 puts those spaces back on the 16 pages and splits no number from its unit.
NUMBER_SPACE_GAP = 0.2
_engine: _Engine | None = None
_lock = threading.Lock()


def _session(path: str):
    """An onnxruntime session as rapidocr makes it, one thread per core (onnxruntime's default; more
    only slow it), but whose idle threads sleep: by default they spin between runs, holding a core
    the crop-and-resize work here and the PDF renderers need. Alone it reads as fast; beside one
    busy process, about a quarter faster. rapidocr takes it as its own (its config's ``session``),
    so each model is loaded once."""
    from onnxruntime import GraphOptimizationLevel, InferenceSession, SessionOptions

    options = SessionOptions()
    options.log_severity_level = 4
    options.enable_cpu_mem_arena = False
    options.graph_optimization_level = GraphOptimizationLevel.ORT_ENABLE_ALL
    options.add_session_config_entry("session.intra_op.allow_spinning", "0")
    return InferenceSession(path, sess_options=options, providers=["CPUExecutionProvider"])


class _Engine:
    """rapidocr's parts: its whole pipeline would detect at its own scale and cut the lines from the
    shrunken picture, so the detector and the recogniser are called one by one."""

    def __init__(self):
        import rapidocr
        from omegaconf import flag_override
        from rapidocr import RapidOCR
        from rapidocr.ch_ppocr_rec import TextRecInput
        from rapidocr.utils.process_img import get_rotate_crop_image

        models = Path(rapidocr.__file__).parent / "models"
        detect, recognise = (str(models / name) for name in MODELS)
        engine = RapidOCR(
            params={
                "Global.log_level": "warning",
                "Det.model_path": detect,
                "Rec.model_path": recognise,
                # the picture comes sized for its print (see _read): the detector must not resize it again
                "Det.limit_type": "max",
                "Det.limit_side_len": 10 * OCR_MAX_SIDE,
                # one line a run: a batch pads its lines to the widest and runs slower besides (measured on
                # 20 lines of a scanned Chinese page and 62 of a paper's screenshot: 30-40% less CPU than 6)
                "Rec.rec_batch_num": 1,
            }
        )
        with flag_override(engine.cfg, "allow_objects", True):  # rapidocr's config sets thread counts, not spinning
            engine.cfg.Det.session, engine.cfg.Rec.session = _session(detect), _session(recognise)
        self.load = engine.load_img  # PNG or JPEG bytes to a BGR array, as rapidocr reads them
        self.detector, self.recogniser = engine._load_det_model(), engine._load_rec_model()
        self.crop, self.batch = get_rotate_crop_image, TextRecInput

    def detect(self, picture: np.ndarray, scale: float) -> np.ndarray:
        """The boxes of the lines in ``picture`` (corner points, in its pixels, top to bottom) found in
        a copy resized by ``scale``."""
        import cv2

        if scale != 1:
            picture = cv2.resize(
                picture, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA if scale < 1 else cv2.INTER_LINEAR
            )
        found = self.detector(picture)
        return np.zeros((0, 4, 2), np.float32) if found.boxes is None else found.boxes.astype(np.float32) / scale

    def cut(self, picture: np.ndarray, box) -> np.ndarray:
        """The line in ``box``, straightened; a tall one is turned a quarter turn counterclockwise."""
        return self.crop(picture, np.array(box, np.float32))

    def read(self, lines: list[np.ndarray]) -> tuple[list[str], list[float]]:
        """Each cut line's text, with the spaces its ink shows (``_spaced``), and its score (0 to 1)."""
        if not lines:
            return [], []
        found = self.recogniser(self.batch(img=lines, return_word_box=True))
        return [_spaced(*read) for read in zip(lines, found.txts, found.word_results)], list(found.scores)


def _in_number(text: str, index: int) -> bool:
    """A decimal point, a thousands comma or a time's colon at ``index``, between two digits: 11435.7,
    12:30. Print in a CJK font sets it as wide as a space."""
    return text[index] in ".,:" and text[index - 1 : index].isdigit() and text[index + 1 : index + 2].isdigit()


def _spaced(line: np.ndarray, text: str, where) -> str:
    """``text`` read from ``line`` with a space put between two letters of Latin script that stand
    ``SPACE_GAP`` of the line's height apart or more (a letter after a digit: ``NUMBER_SPACE_GAP``).
    ``where`` is the recogniser's: the column of each letter that is not a space (``word_cols``) out
    of the ``line_txt_len`` across the line."""
    columns = [column for word in where.word_cols for column in word]
    letters = [index for index, char in enumerate(text) if not char.isspace()]
    if not columns or len(columns) != len(letters):
        return text
    step = line.shape[1] / where.line_txt_len
    pairs = [
        (right, int(start * step), int((end + 1) * step))  # the two letters' columns, in the line's pixels
        for (left, right), (start, end) in zip(zip(letters, letters[1:]), zip(columns, columns[1:]))
        if right == left + 1 and text[left].isascii() and text[right].isascii() and not _in_number(text, left)
    ]
    if not pairs:
        return text
    grey = line.mean(axis=2)
    background = np.median(np.concatenate([grey[0], grey[-1]]))
    blank = ~(np.abs(grey - background) > INK).any(axis=0)
    edges = np.flatnonzero(np.diff(np.concatenate(([0], blank.astype(np.int8), [0]))))
    narrowest = NUMBER_SPACE_GAP * line.shape[0]
    wide = [(first, last) for first, last in zip(edges[::2], edges[1::2]) if last - first >= narrowest]  # blank runs
    gaps = []
    for right, a, b in pairs:
        after_number = text[right - 1].isdigit() and text[right].isalpha()
        space = (NUMBER_SPACE_GAP if after_number else SPACE_GAP) * line.shape[0]
        if any(min(last, b) - max(first, a) >= space for first, last in wide):
            gaps.append(right)
    for index in reversed(gaps):
        text = text[:index] + " " + text[index:]
    return text


def _inked(picture: np.ndarray) -> tuple[int, int, np.ndarray] | None:
    """The part of ``picture`` that holds anything unlike its border's colour, with a margin, and
    its top-left corner; None for a blank picture. Judged on every 4th pixel: print is wider."""
    grey = picture[::4, ::4].mean(axis=2)
    background = np.median(np.concatenate([grey[0], grey[-1], grey[:, 0], grey[:, -1]]))
    ink = np.abs(grey - background) > INK
    rows, columns = np.flatnonzero(ink.any(axis=1)), np.flatnonzero(ink.any(axis=0))
    if not len(rows):
        return None
    top, left = max(0, 4 * rows[0] - INK_MARGIN), max(0, 4 * columns[0] - INK_MARGIN)
    return left, top, picture[top : 4 * rows[-1] + INK_MARGIN_PAST, left : 4 * columns[-1] + INK_MARGIN_PAST]


def _find(picture: np.ndarray, scale: float | None = None, side: int = QUICK_SIDE) -> tuple[np.ndarray, float]:
    """The line boxes in ``picture`` and the scale they were found at: ``scale``, or for a look
    the one that makes it at most ``side`` pixels long."""
    inked = _inked(picture)
    if inked is None:
        return np.zeros((0, 4, 2), np.float32), 1.0
    left, top, part = inked
    if scale is None:
        scale = min(1.0, side / max(part.shape[:2]))
    boxes = _load().detect(part, scale)
    boxes[..., 0] += left
    boxes[..., 1] += top
    return boxes, scale


def _sides(box) -> tuple[float, float]:
    """A box's (length along its text, height across it)."""
    a, b = float(np.linalg.norm(box[0] - box[1])), float(np.linalg.norm(box[0] - box[3]))
    return max(a, b), min(a, b)


def _tall(box) -> bool:
    """A box (its corner points) more than twice as tall as it is wide: text turned on its side."""
    xs, ys = [x for x, _ in box], [y for _, y in box]
    return max(ys) - min(ys) > 2 * (max(xs) - min(xs))


def _turns(picture: np.ndarray, boxes: np.ndarray) -> int:
    """Quarter turns counterclockwise that set the picture's text upright: a picture scanned sideways
    shows mostly tall boxes; one upside down reads better turned over. The middles of the longest
    lines are read as they are, and upside down unless they read well (``SURE_UPRIGHT``): rapidocr's
    line classifier, used before, called up to a quarter of the lines of an upright page upside down
    and turned some of them over, garbling them."""
    tall = [_tall(box) for box in boxes]
    sideways = sum(tall) > SIDEWAYS_SHARE * len(boxes)
    lines = sorted((box for box, turned in zip(boxes, tall) if turned == sideways), key=lambda box: -_sides(box)[0])
    snippets = []
    for box in lines[:SAMPLE_LINES]:
        line = _load().cut(picture, box)  # a tall line comes turned a quarter turn counterclockwise
        height, width = line.shape[:2]
        start = max(0, (width - SNIPPET * height) // 2)
        snippets.append(line[:, start : start + SNIPPET * height])
    upright = _load().read(snippets)[1]
    if np.mean(upright) >= SURE_UPRIGHT:  # read well as they are: no need to read them upside down
        return 1 if sideways else 0
    over = _load().read([np.rot90(snippet, 2) for snippet in snippets])[1]
    return (1 if sideways else 0) + (2 if sum(over) > sum(upright) else 0)


def _lines(boxes, texts) -> str:
    """Join the boxes (sorted top to bottom, left to right) into lines of text.

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


def _print(boxes: np.ndarray) -> float:
    """The smaller print's line height (``SMALL_PRINT``) among ``boxes``, in pixels; 0 for none."""
    return float(np.percentile([_sides(box)[1] for box in boxes], SMALL_PRINT)) if len(boxes) else 0.0


def _read(picture: np.ndarray) -> tuple[list, list[str]]:
    """The lines in ``picture`` (a BGR array), read as the module's docstring tells: each line's box
    (its corners, in the picture turned the right way up) and text, top to bottom."""
    boxes, probe = _find(picture)
    if probe < 1 and _print(boxes) * probe < SURE_HEIGHT:
        boxes, probe = _find(picture, side=PROBE_SIDE)
    if not len(boxes):
        return [], []
    height = _print(boxes)
    # the scale that makes the smaller print's boxes LINE_HEIGHT px high, never finer than rapidocr's
    # own (the picture as it is, or enlarged to a short side of SHORT_SIDE), nor past OCR_MAX_SIDE
    scale = min(
        LINE_HEIGHT / height, max(1.0, SHORT_SIDE / min(picture.shape[:2])), OCR_MAX_SIDE / max(picture.shape[:2])
    )
    turns = _turns(picture, boxes)
    if turns:
        picture = np.ascontiguousarray(np.rot90(picture, turns))
    if (
        turns or not scale <= probe <= 2 * scale
    ):  # the probe's boxes serve unless the print was too small or too big in it
        boxes, _ = _find(picture, scale)
    lines = [_load().cut(picture, box) for box in boxes]
    texts, scores = _load().read(lines)
    # a line standing on its side in an upright picture (an axis title) may run up or down: read both ways
    tall = [index for index, box in enumerate(boxes) if _tall(box)]
    for index, text, score in zip(tall, *_load().read([np.rot90(lines[index], 2) for index in tall])):
        if score > scores[index]:
            texts[index], scores[index] = text, score
    kept = [index for index, (text, score) in enumerate(zip(texts, scores)) if text.strip() and score >= MIN_SCORE]
    return [boxes[index].tolist() for index in kept], [texts[index] for index in kept]


def _found(image: bytes) -> tuple[list, list[str]]:
    """The lines rapidocr finds in ``image`` (PNG or JPEG bytes), as ``_read`` gives them. A picture
    turned on its side or upside down is read the right way up."""
    # One engine per process, loaded on first use (or ahead, by load_soon); one image at a time, since
    # onnxruntime already spreads a single image over every core (its default: a thread per physical core).
    with _lock:
        return _read(_load().load(image))


def read_text(image: bytes) -> str:
    """The text rapidocr finds in ``image`` (PNG or JPEG bytes), line by line; "" if none."""
    return _lines(*_found(image))


def read_page(image: bytes) -> str:
    """A scanned page's text as rapidocr finds it in ``image``, laid out as a PDF page's text is
    (``readers.pdf.layout.boxed_markdown``: columns read down, tables where the lines' boxes make
    one, headings half as large again as the body); each line turned on its side follows, alone."""
    from ..pdf.headings import heading_levels  # the page engine only for a scanned page: a deck's pictures need none
    from ..pdf.layout import boxed_markdown

    boxes, texts = _found(image)
    phrases = [
        ((min(x for x, _ in box), min(y for _, y in box), max(x for x, _ in box), max(y for _, y in box)), text)
        for box, text in zip(boxes, texts)
        if not _tall(box)
    ]
    turned = [line for box, line in zip(boxes, texts) if _tall(box)]
    return heading_levels(["\n\n".join([boxed_markdown(phrases)[0], *turned]).strip()])[0]


def _load() -> _Engine:
    """The process's engine, loaded on first use."""
    global _engine
    if _engine is None:
        _engine = _Engine()
    return _engine


def load_soon() -> None:
    """Load the engine in the background, for a reading that will need it: its second or so of
    imports and models then overlaps what the reading waits for first (LibreOffice above all)."""
    if _engine is None:
        threading.Thread(target=_load_quietly, name="readlens-ocr-load", daemon=True).start()


def _load_quietly() -> None:
    with _lock:
        try:
            _load()
        except Exception:  # noqa: BLE001 - the read that needs the engine loads it again, and says why it cannot
            pass
