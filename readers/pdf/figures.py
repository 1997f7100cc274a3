"""Figures on a PDF page — pictures, vector drawings, scans — found from the page's parsed objects.

pdfplumber has already parsed every object of the page to extract its text, so finding figures
costs only a pass over its images, curves, rectangles and lines (``python -m bench readers``
measures it per page):

- a **picture** is a raster image (overlapping tiles merged) at least ``MIN_SIDE`` on its short
  side and ``MIN_AREA`` in all, so rules, bullets and small logos are left out;
- a **drawing** is a cluster of at least ``MIN_DRAWING_OBJECTS`` vector objects, each within
  ``GAP`` of another, outside the page's tables and past the same size floor; a rectangle that
  covers most of the page is its background, not a drawing, and a filled rectangle with text on it
  and nothing that is a drawing of its own is a panel of text (a web page's bar, sidebar, footer
  and cookie banner; a shaded box in a PDF), not a drawing either;
- **drawn text** is words drawn as filled outlines with no characters behind them (a poster's
  title, a logo's slogan: ``readers.pdf.drawn_text``); its shapes are not also a drawing;
- a page with no text layer is one **scan**: the picture it shows when it holds one and nothing
  else (a Word page that is a screenshot is read as that screenshot, at its own resolution), else
  the whole page.

Each figure gets its box as fractions of the page, its caption (a line beside it that starts
like "Figure 3.1" or "Chart"), whether the page's text layer already holds the words inside it
(then OCR would only repeat them: a drawing's labels, or a text layer laid over a picture), and
the dpi to render it at for OCR, chosen by measuring word recall (``test_figures``): a drawing at
``OCR_DPI``; a raster at its own resolution, doubled below ``UPSCALE_BELOW`` dpi, at most
``OCR_DPI`` — a 72 dpi scan read at 144 dpi finds 99% of its words, read at 300 dpi only 51%
(the detector misses letters blown up that large), and a 600 dpi scan loses nothing at 300 dpi.
No figure is rendered past ``OCR_MAX_SIDE`` pixels, however large its embedded image.
"""

from __future__ import annotations

import re

from .boxes import box_of, centre_in, near, union
from .drawn_text import drawn_text
from .shades import page_shades, zebra_stripes

MIN_SIDE = 0.3 * 72  # points; a bullet or a rule is thinner
MIN_AREA = 1.5 * 72 * 72  # square points; a header logo is smaller
MIN_DRAWING_OBJECTS = 3
GAP = 6.0  # points
LABEL_GAP = 16.0  # points: text this close to a drawing is its labels (tick labels, legend, title)
LEGEND_REACH = 48.0  # points: how far from a drawing's plot its legend keys may stand
TABLE_MARGIN = 2.0  # points: a table's outer rules lie on its box's edge, a hair outside
PARAGRAPH_GAP = 0.6  # line heights: a wider gap between lines starts a paragraph (and ends a caption)
BACKGROUND_SHARE = 0.8  # of the page's area: a vector object this large is its background, no figure
PANEL_SHARE = 0.9  # of a cluster's box: a filled rectangle this large is the background of a panel of text
WORDS_DENSITY = 10 / (72 * 72)  # characters per square point: the text layer covers the figure
OCR_DPI = 300
UPSCALE_BELOW = 150  # dpi: a coarser raster is read at twice its resolution
OCR_MAX_SIDE = 3600  # pixels: a whole A4 or Letter page at 300 dpi
CAPTION = re.compile(
    r"(figure|fig\.|chart|diagram|graph|table|image|photo|illustration|exhibit|map|plate|abbildung|abb\.)\s*\S", re.I
)


def _clusters(boxes: list, gap: float) -> list[list[int]]:
    """Indices of ``boxes`` grouped so that each box is within ``gap`` of another of its group.

    A sweep over the boxes sorted by their left edge compares each only with those still open
    to its right, so a page of a few hundred objects costs well under a millisecond.
    """
    parent = list(range(len(boxes)))

    def root(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    order = sorted(range(len(boxes)), key=lambda i: boxes[i][0])
    open_: list[int] = []
    for i in order:
        open_ = [j for j in open_ if boxes[j][2] + gap >= boxes[i][0]]
        for j in open_:
            if near(boxes[i], boxes[j], gap):
                parent[root(i)] = root(j)
        open_.append(i)
    groups: dict[int, list[int]] = {}
    for i in range(len(boxes)):
        groups.setdefault(root(i), []).append(i)
    return list(groups.values())


def _panel(objects: list, box, chars: list) -> bool:
    """Whether a cluster is a panel of text rather than a drawing: one filled rectangle paints nearly
    all of its box, or a row of them side by side does (a table's row whose cells are each shaded, as Word
    prints them), text stands on it, and what else it holds (a link's underline, a list's bullets,
    a small button) makes no drawing of its own. A web page's bar, sidebar, footer and cookie banner
    print so, as does a shaded box of text in a PDF; a chart on a filled plot area keeps its bars."""
    size = lambda rect: (rect[2] - rect[0]) * (rect[3] - rect[1])
    filled = [index for index, (rect, fill) in enumerate(objects) if fill]
    backs = [index for index in filled if size(objects[index][0]) >= PANEL_SHARE * size(box)][:1]
    row = [
        index for index in filled if abs(objects[index][0][1] - box[1]) <= 1 and abs(objects[index][0][3] - box[3]) <= 1
    ]
    if not backs and sum(size(objects[index][0]) for index in row) >= PANEL_SHARE * size(box):
        backs = row
    if not backs or not any(centre_in(char, [box]) for char in chars):
        return False
    rest = [rect for index, (rect, _) in enumerate(objects) if index not in backs]
    return not any(
        len(group) >= MIN_DRAWING_OBJECTS and _big_enough(union([rest[i] for i in group]))
        for group in _clusters(rest, GAP)
    )


def _big_enough(box) -> bool:
    width, height = box[2] - box[0], box[3] - box[1]
    return min(width, height) >= MIN_SIDE and width * height >= MIN_AREA


def _merged(boxes: list) -> list:
    """Boxes that touch or overlap become one (an image cut into tiles is one picture)."""
    return [union([boxes[i] for i in group]) for group in _clusters(boxes, 1.0)]


def _caption(box, lines: list[dict]) -> str | None:
    """The caption line nearest below the figure (or above it), within two line heights."""
    best = None
    for index, line in enumerate(lines):
        if line["x1"] < box[0] or line["x0"] > box[2] or not CAPTION.match(line["text"]):
            continue
        height = line["bottom"] - line["top"]
        gap = line["top"] - box[3] if line["top"] >= box[3] - height / 2 else box[1] - line["bottom"]
        if -height / 2 <= gap <= 2 * height and (best is None or gap < best[0]):
            best = (gap, index)
    if best is None:
        return None
    index = best[1]
    parts = [lines[index]["text"]]
    for line in lines[index + 1 : index + 3]:  # a caption may run on for a line or two
        previous = lines[index + len(parts) - 1]
        if line["top"] - previous["bottom"] > PARAGRAPH_GAP * (previous["bottom"] - previous["top"]) or CAPTION.match(
            line["text"]
        ):
            break
        parts.append(line["text"])
    return " ".join(parts)


def _ocr_dpi(box, images: list[dict]) -> int:
    """The dpi to render a figure at for OCR (see the module's docstring), within ``OCR_MAX_SIDE``."""
    native = [
        image["srcsize"][0] * 72 / (image["x1"] - image["x0"])
        for image in images  # a damaged /Width (a name) says nothing
        if image["x1"] > image["x0"]
        and image.get("srcsize")
        and isinstance(image["srcsize"][0], (int, float))
        and centre_in(box_of(image), [box])
    ]
    dpi = float(OCR_DPI)
    if native:
        finest = max(native)
        dpi = min(OCR_DPI, 2 * finest if finest < UPSCALE_BELOW else finest)
    longest = max(box[2] - box[0], box[3] - box[1]) / 72
    return max(1, int(min(dpi, OCR_MAX_SIDE / longest)))


def _figure(kind: str, box, page, caption, has_text: bool, images: list[dict]) -> dict:
    """A figure's dict (see ``find_figures``) from its box in points."""
    left, top, width, height = float(page.bbox[0]), float(page.bbox[1]), float(page.width), float(page.height)
    return {
        "kind": kind,
        "box": [
            round((box[0] - left) / width, 4),
            round((box[1] - top) / height, 4),
            round((box[2] - left) / width, 4),
            round((box[3] - top) / height, 4),
        ],
        "caption": caption,
        "has_text": has_text,
        "dpi": _ocr_dpi(box, images),
    }


def find_figures(page, table_boxes: list) -> list[dict]:
    """The figures of a pdfplumber ``page`` whose tables stand in ``table_boxes``, as dicts with
    ``kind`` (picture, drawing, drawn text, scan), ``box`` (fractions of the page), ``caption``,
    ``has_text`` and ``dpi``; top to bottom."""
    width, height = float(page.width), float(page.height)
    left, top = float(page.bbox[0]), float(page.bbox[1])
    whole = (left, top, left + width, top + height)
    images = page.images
    # What stands off the page (a bleed, a parked object) is not seen: only the part on it counts.
    clip = lambda box: (max(box[0], whole[0]), max(box[1], whole[1]), min(box[2], whole[2]), min(box[3], whole[3]))
    pictures = _merged([clip(box_of(image)) for image in images])
    if not page.chars:
        vectors = (*page.curves, *page.rects, *page.lines)
        if not (images or vectors):
            return []  # a blank page: nothing to read or to describe
        box = pictures[0] if len(pictures) == 1 and not vectors else whole
        return [_figure("scan", box, page, None, False, images)]
    found = [("picture", box) for box in pictures if _big_enough(box)]
    tables = [
        (x0 - TABLE_MARGIN, top_ - TABLE_MARGIN, x1 + TABLE_MARGIN, bottom + TABLE_MARGIN)
        for x0, top_, x1, bottom in table_boxes
    ]
    solid = {id(rect) for rect in page.rects if rect.get("fill")}
    stripes = zebra_stripes(page_shades(page))  # a table's rows shaded in turn: no drawing
    objects = (*page.curves, *(rect for rect in page.rects if id(rect) not in stripes), *page.lines)
    vector = [(box_of(obj), id(obj) in solid) for obj in objects]
    vector = [
        (box, filled)
        for box, filled in vector
        if (box[2] - box[0]) * (box[3] - box[1]) < BACKGROUND_SHARE * width * height and not centre_in(box, tables)
    ]
    filled = [box_of(obj) for obj in (*page.curves, *page.rects) if obj.get("fill")]
    shapes = [box for box in filled if not centre_in(box, tables)]
    words = drawn_text(shapes, [box_of(char) for char in page.chars]) if shapes else []
    found += [("drawn text", clip(box)) for box in words]
    vector = [(box, filled) for box, filled in vector if not centre_in(box, words)]
    groups = _clusters([box for box, _ in vector], GAP)
    clusters = [(len(group), union([vector[i][0] for i in group])) for group in groups]
    chars = [box_of(char) for char in page.chars]
    for group, (count, box) in zip(groups, clusters):
        if (
            count >= MIN_DRAWING_OBJECTS
            and _big_enough(clip(box))
            and not _panel([vector[i] for i in group], box, chars)
            and not any(near(box, other, 0) for kind, other in found if kind == "picture")
        ):
            # A chart's legend keys stand apart from its plot: small shapes near it are part of it.
            box = union(
                [box, *(other for _, other in clusters if not _big_enough(other) and near(box, other, LEGEND_REACH))]
            )
            # A chart without gridlines can be two clusters, its data over its axes: one drawing.
            overlapping = [item for item in found if item[0] == "drawing" and near(box, item[1], 0)]
            found = [item for item in found if item not in overlapping] + [
                ("drawing", clip(union([box, *(other for _, other in overlapping)])))
            ]
    if not found:
        return []
    lines = page.extract_text_lines(strip=True, return_chars=False)
    figures = []
    for kind, box in sorted(found, key=lambda item: (round(item[1][1]), item[1][0])):
        area = (box[2] - box[0]) * (box[3] - box[1])
        # A chart's labels stand just outside its lines: count them with the drawing.
        inside = sum(
            1
            for char in page.chars
            if (near(box_of(char), box, LABEL_GAP) if kind == "drawing" else centre_in(box_of(char), [box]))
        )
        has_text = inside >= (1 if kind == "drawing" else WORDS_DENSITY * area)
        figures.append(_figure(kind, box, page, _caption(box, lines), has_text, images))
    return figures
