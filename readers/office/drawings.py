"""Charts and SmartArt read from their own XML parts (PowerPoint and Word embed the same ones).

Charts, for every plot type: kind, title, series, categories and cached values as a Markdown table,
in the wording every chart has (``readers.markup.charts``); Excel's reader uses ``chart_kind`` too,
and takes the values from the cells a chart points at.

python-pptx refuses plot types it does not model (a 3-D bar chart: "unsupported plot type"), so
the chart part is read directly; Office's newer chart parts (``cx:``: waterfall, treemap,
sunburst, funnel, ...) are read the same way from their data section.

SmartArt: the text of its data part (what the person typed), nested as the diagram nests it.
Pictures: whether the image a picture points to is in the package at all, and its bytes for OCR, as
the page shows them (``shown_picture``: cut to its crop, a shape drawn over it painted over it).
And what both readers need to get there: the namespaces, a related part and its XML, the
choice an mc:AlternateContent shows.
"""

from __future__ import annotations

import io
import re
import warnings

from lxml import etree
from PIL import Image, ImageDraw

from ..errors import described
from ..intake.links import LINKED, where
from ..intake.package import PARSER
from ..markup.blocks import Block, BlockKind
from ..markup.charts import chart_block, chart_heading, chart_rows, number_text
from ..markup.markdown import list_item, one_line
from .metafiles import emf_bitmap

OCR_SIDE = 4096  # pixels: OCR reads a picture's text no better larger, and a 99-megapixel one would be 400 MB

C = "{http://schemas.openxmlformats.org/drawingml/2006/chart}"
CX = "{http://schemas.microsoft.com/office/drawing/2014/chartex}"
A = "{http://schemas.openxmlformats.org/drawingml/2006/main}"
DGM = "{http://schemas.openxmlformats.org/drawingml/2006/diagram}"
R = "{http://schemas.openxmlformats.org/officeDocument/2006/relationships}"
MC = "{http://schemas.openxmlformats.org/markup-compatibility/2006}"
GRAPHIC_CHART = "http://schemas.openxmlformats.org/drawingml/2006/chart"
GRAPHIC_CHARTEX = "http://schemas.microsoft.com/office/drawing/2014/chartex"
GRAPHIC_DIAGRAM = "http://schemas.openxmlformats.org/drawingml/2006/diagram"


def parse_xml(blob: bytes):
    """A package part's XML, never resolving entities or reaching the network."""
    return etree.fromstring(blob, PARSER)


def part_root(part):
    """A package part's XML root: the one python-docx or python-pptx already parsed (an XML part,
    a chart part), else parsed from the part's bytes."""
    element = getattr(part, "_element", None)
    return element if element is not None else parse_xml(part.blob)


def related_part(part, rel_id: str | None):
    """The package part ``part`` relates to by ``rel_id``; None for no such relationship or an
    external one."""
    rel = part.rels.get(rel_id) if rel_id else None
    return rel.target_part if rel is not None and not rel.is_external else None


def external_target(part, rel_id: str | None) -> str | None:
    """The address an external relationship (a link) of ``part`` points to, or None."""
    rel = part.rels.get(rel_id) if rel_id else None
    return rel.target_ref if rel is not None and rel.is_external else None


def chosen(alternate):
    """What an mc:AlternateContent shows: its first choice, else its fallback (which repeats it
    for older readers); an empty list when it has neither."""
    choice = alternate.find(f"{MC}Choice")
    if choice is None:
        choice = alternate.find(f"{MC}Fallback")
    return choice if choice is not None else []


def chart_kind(plot_name: str, bar_direction: str | None = None) -> str:
    """A plot's kind from its element's name: "bar3DChart" -> "3-D bar"; a bar chart whose bars
    stand up (c:barDir "col") is a column chart."""
    name = plot_name.rsplit("}", 1)[-1].removesuffix("Chart")
    three_d = "3D" in name
    name = name.replace("3D", "")
    if name == "bar" and bar_direction == "col":
        name = "column"
    words = {"ofPie": "pie-of-pie", "doughnut": "doughnut", "stock": "stock"}.get(name, name)
    return ("3-D " if three_d else "") + words


def _kind(plot) -> str:
    direction = plot.find(f"{C}barDir")
    return chart_kind(plot.tag, direction.get("val") if direction is not None else None)


def _points(element) -> dict[int, str]:
    """idx -> text of a cache (c:strCache, c:numCache, the last level of c:multiLvlStrCache)."""
    if element is None:
        return {}
    values: dict[int, str] = {}
    for point in element.iter(f"{C}pt"):
        value = point.find(f"{C}v")
        if value is not None and value.text is not None:
            values.setdefault(int(point.get("idx", "0")), value.text)
    if not values:
        literal = element.find(f".//{C}v")
        if literal is not None and literal.text:
            values[0] = literal.text
    return values


def _title(element) -> str:
    if element is None:
        return ""
    runs = [node.text or "" for node in element.iter(f"{A}t")]
    return one_line("".join(runs)) or " ".join(_points(element.find(f".//{C}strCache")).values())


def _shown(values: dict[int, str]) -> dict[int, str]:
    return {index: number_text(value) for index, value in values.items()}


def _drawingml_chart(root) -> Block:
    chart = root.find(f"{C}chart")
    plot_area = chart.find(f"{C}plotArea") if chart is not None else None
    if plot_area is None:
        raise ValueError("the chart part has no plot area")
    plots = [plot for plot in plot_area if isinstance(plot.tag, str) and plot.tag.endswith("Chart")]
    categories: dict[int, str] = {}
    series: list[tuple[str, dict[int, str]]] = []
    for plot in plots:
        for ser in plot.findall(f"{C}ser"):
            name = " ".join(_points(ser.find(f"{C}tx")).values())
            if not categories:
                categories = _points(ser.find(f"{C}cat")) or _points(ser.find(f"{C}xVal"))
            values = ser.find(f"{C}val")
            series.append((name, _shown(_points(values if values is not None else ser.find(f"{C}yVal")))))
    title = _title(chart.find(f"{C}title"))
    deleted = chart.find(f"{C}autoTitleDeleted")
    if not title and len(series) == 1 and (deleted is None or deleted.get("val") in ("0", "false")):
        title = series[0][0]  # Office titles a one-series chart with the series' name
    return chart_block(
        chart_heading(title, [_kind(plot) for plot in plots]), chart_rows(categories, series) if series else []
    )


def _chartex(root) -> Block:
    """Office 2016 charts: data sets under cx:chartData, series under cx:plotAreaRegion."""
    data = {}
    for dataset in root.iter(f"{CX}data"):
        dims: dict[str, dict[int, str]] = {}
        for dim in dataset:
            if isinstance(dim.tag, str) and dim.tag in (f"{CX}strDim", f"{CX}numDim"):
                levels = dim.findall(f"{CX}lvl")
                points = {
                    int(pt.get("idx", "0")): pt.text or "" for pt in (levels[-1].findall(f"{CX}pt") if levels else [])
                }
                dims.setdefault(dim.get("type", ""), points)
        data[dataset.get("id")] = dims
    kinds: list[str] = []
    categories: dict = {}
    series: list = []
    for ser in root.iter(f"{CX}series"):
        kinds.append(
            {
                "clusteredColumn": "column",
                "paretoLine": "pareto",
                "boxWhisker": "box and whisker",
                "regionMap": "map",
            }.get(ser.get("layoutId", ""), ser.get("layoutId", ""))
        )
        reference = ser.find(f"{CX}dataId")
        dims = data.get(reference.get("val") if reference is not None else None, {})
        categories = categories or dims.get("cat", {})
        values = dims.get("val") or dims.get("size") or {}
        name = "".join(node.text or "" for node in ser.iter(f"{CX}v"))
        if values or name:
            series.append((name, _shown(values)))
    title_element = root.find(f".//{CX}title")
    title = _title(title_element) or (
        "".join(node.text or "" for node in title_element.iter(f"{CX}v")) if title_element is not None else ""
    )
    return chart_block(chart_heading(title, kinds), chart_rows(categories, series) if series else [])


def part_chart(part) -> Block:
    """The chart part ``part`` as a chart's block: a heading line ("Chart: title (kind chart)") and a
    table of its series. Raises ``ValueError`` (or lxml's ``XMLSyntaxError``) when the part is not a chart."""
    root = part_root(part)
    if root.tag == f"{C}chartSpace":
        return _drawingml_chart(root)
    if root.tag == f"{CX}chartSpace":
        return _chartex(root)
    raise ValueError(f"{etree.QName(root).localname} is not a chart")


def graphic_chart(data, part, label: str) -> Block:
    """The chart an a:graphicData holds, as ``part_chart`` gives it; a chart whose part is
    missing or damaged costs that chart only: a figure ``[label: its data could not be read (why)]``."""
    reference = next((child for child in data if isinstance(child.tag, str)), None)
    try:
        target = related_part(part, reference.get(f"{R}id") if reference is not None else None)
        if target is None:
            raise ValueError("its data part is missing")
        return part_chart(target)
    except Exception as error:  # noqa: BLE001 - lxml's, python-pptx's and our own: the rest is still read
        return Block(BlockKind.FIGURE, f"[{label}: its data could not be read ({described(error)})]")


def graphic_smartart(data, part, label: str) -> str:
    """The SmartArt an a:graphicData holds: ``label`` ("Diagram: ...") over its text as nested
    items; a missing or damaged data part is said in their place."""
    relids = data.find(f".//{DGM}relIds")
    try:
        target = related_part(part, relids.get(f"{R}dm") if relids is not None else None)
        if target is None:
            raise ValueError("its data part is missing")
        lines = smartart_lines(target)
    except Exception as error:  # noqa: BLE001 - as for charts
        lines = [f"[its text could not be read ({described(error)})]"]
    return "\n".join([label, *lines])


def smartart_lines(part) -> list[str]:
    """A SmartArt data part's text as nested "- " items, children under their parent, in order.

    Points are linked by "parOf" connections (the default type) from the document point down;
    a point no connection reaches is listed at the top level, so no text is lost.
    """
    root = part_root(part)
    texts, order = {}, []
    for point in root.iter(f"{DGM}pt"):
        kind = point.get("type", "node")
        if kind in ("node", "doc"):
            model_id = point.get("modelId")
            paragraphs = ["".join(node.text or "" for node in p.iter(f"{A}t")) for p in point.iter(f"{A}p")]
            texts[model_id] = (kind, one_line(" ".join(paragraphs)))
            order.append(model_id)
    children: dict[str, list[tuple[int, str]]] = {}
    has_parent = set()
    for connection in root.iter(f"{DGM}cxn"):
        if connection.get("type", "parOf") != "parOf":
            continue
        source, target = connection.get("srcId"), connection.get("destId")
        if source in texts and target in texts:
            children.setdefault(source, []).append((int(connection.get("srcOrd", "0")), target))
            has_parent.add(target)
    lines: list[str] = []
    seen: set[str] = set()

    def walk(model_id: str, depth: int) -> None:
        if model_id in seen:
            return
        seen.add(model_id)
        kind, text = texts[model_id]
        if kind == "node" and text:
            lines.append(list_item(depth, "-", text))
        for _, child in sorted(children.get(model_id, [])):
            walk(child, depth + (kind == "node" and bool(text)))

    for model_id in order:
        if model_id not in has_parent:
            walk(model_id, 0)
    return lines


# what Office ends the alt text it generates with ("Description automatically generated", "AI-generated content …")
GENERATED_ALT = re.compile(
    r"\s*(?:Description automatically generated(?: with (?:high|medium|low) confidence)?|AI-generated content may be "
    r"incorrect)\.?\s*$"
)


def picture_link(picture, part) -> str | None:
    """Where a picture element (p:pic, pic:pic) links its image outside the file (by ``r:link``, or
    an ``r:embed`` naming an external target), as ``readers.intake.links.where`` says it, when the
    file does not hold the image too; else None."""
    blip = picture.find(f".//{A}blip")
    if blip is None:
        return None
    embedded, linked = (part.rels.get(blip.get(f"{R}{kind}")) for kind in ("embed", "link"))
    if embedded is not None and not embedded.is_external:
        return None
    outside = next((relation for relation in (embedded, linked) if relation is not None and relation.is_external), None)
    return where(outside.target_ref) if outside is not None else None


def picture_placeholder(picture, part, alt: str) -> str:
    """``[Picture: alt text]`` for a picture element (p:pic, pic:pic), saying so when its image is
    missing from the package or only linked (never loaded), since the page then shows nothing
    there. The notice Office ends the alt text it writes itself with is no description, and is left out."""
    blip = picture.find(f".//{A}blip")
    rel_id = (blip.get(f"{R}embed") or blip.get(f"{R}link")) if blip is not None else None
    alt = GENERATED_ALT.sub("", alt)
    text = f"Picture: {alt}" if alt else "Picture"
    if (linked := picture_link(picture, part)) is not None:
        return f"[{text} — {LINKED.format(where=linked)}]"
    return f"[{text}]" if rel_id and rel_id in part.rels else f"[{text} — its image is missing from the file]"


def chart_summary(data, part) -> str | None:
    """What the chart an a:graphicData holds is, for its figure's label, as a PDF chart's is
    worded: "column, 2 series", "pie, 3 slices"; None when its part cannot be read."""
    reference = next((child for child in data if isinstance(child.tag, str)), None)
    try:
        target = related_part(part, reference.get(f"{R}id") if reference is not None else None)
        root = part_root(target) if target is not None else None
    except Exception:  # noqa: BLE001 - graphic_chart says what is wrong with it in the text
        return None
    if root is None:
        return None
    if root.tag == f"{CX}chartSpace":
        count = len(list(root.iter(f"{CX}series")))
        return f"chart, {count} series" if count else None
    plots = [
        plot
        for plot in root.iter()
        if isinstance(plot.tag, str)
        and plot.tag.startswith(C)
        and plot.tag.endswith("Chart")
        and plot.tag != f"{C}chart"
    ]
    series = [ser for plot in plots for ser in plot.findall(f"{C}ser")]
    if not series:
        return None
    kind = _kind(plots[0])
    if kind.endswith(("pie", "doughnut")):
        return f"{kind}, {len(_points(series[0].find(f'{C}cat')) or _points(series[0].find(f'{C}val')))} slices"
    return f"{kind}, {len(series)} series"


def ocr_image(blob: bytes, content_type: str) -> bytes | str:
    """A picture's bytes as PNG or JPEG, which OCR reads, or why they cannot be had (a format
    Pillow cannot open, such as WMF, or an EMF that is more than one bitmap: ``emf_bitmap``). A
    picture in another format is drawn at most ``OCR_SIDE`` pixels on its long side; Pillow's
    warning about a picture of more than 89 megapixels is not printed (the image reader's
    100-megapixel limit is the one that counts, and Pillow's own error stops a larger one)."""
    blob = emf_bitmap(blob) or blob
    if blob[:8] == b"\x89PNG\r\n\x1a\n" or blob[:3] == b"\xff\xd8\xff":
        return blob
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", Image.DecompressionBombWarning)
            with Image.open(io.BytesIO(blob)) as image:
                image.seek(0)  # an animation's first frame
                image.thumbnail((OCR_SIDE, OCR_SIDE))
                buffer = io.BytesIO()
                image.convert("RGB").save(buffer, format="PNG", compress_level=1)
                return buffer.getvalue()
    except Exception as error:  # noqa: BLE001 - Pillow raises many types for what it cannot read
        return f"its image ({content_type}) cannot be read here ({type(error).__name__})"


def picture_bytes(picture, part) -> bytes | str | None:
    """The image a picture element (p:pic, pic:pic) shows, as ``ocr_image`` gives it; None when
    the package lacks it, so the page shows nothing there."""
    blip = picture.find(f".//{A}blip")
    target = related_part(part, blip.get(f"{R}embed") if blip is not None else None)
    return ocr_image(target.blob, target.content_type) if target is not None else None


def picture_crop(picture) -> tuple[float, float, float, float] | None:
    """What of its image a picture element (p:pic, pic:pic, xdr:pic) cuts off (``a:srcRect``: left,
    top, right, bottom, as fractions of the image), or None for none. An outward crop (a negative
    value, which adds a margin) cuts nothing."""
    rect = next(picture.iter(f"{A}srcRect"), None)
    if rect is None:
        return None
    try:
        left, top, right, bottom = (min(max(float(rect.get(side) or 0) / 100_000, 0.0), 1.0) for side in "ltrb")
    except ValueError:  # a damaged number: no crop read
        return None
    return (left, top, right, bottom) if any((left, top, right, bottom)) else None


def cover_colour(element) -> str | None:
    """The colour a shape or picture drawn over a picture hides it with, or None where it lets it
    show (no fill, or a fill with some transparency): its own fill, else its style's; a picture hides
    what is under it (painted white)."""
    properties = next((child for child in element if isinstance(child.tag, str) and child.tag.endswith("}spPr")), None)
    if properties is not None and properties.find(f"{A}noFill") is not None:
        return None
    if properties is not None and next(properties.iter(f"{A}alpha"), None) is not None:
        return None
    solid = properties.find(f"{A}solidFill/{A}srgbClr") if properties is not None else None
    if solid is not None and re.fullmatch(r"[0-9A-Fa-f]{6}", solid.get("val") or ""):
        return f"#{solid.get('val')}"
    filled = properties is not None and any(
        properties.find(f"{A}{kind}") is not None for kind in ("solidFill", "gradFill", "pattFill", "blipFill")
    )
    styled = next(element.iter(f"{A}fillRef"), None)
    if filled or element.tag.endswith("}pic") or (styled is not None and styled.get("idx") not in (None, "0")):
        return "white"
    return None


def shown_picture(image: bytes, crop, covers: list) -> bytes | str:
    """``image`` (PNG or JPEG bytes, as ``ocr_image`` gives them) as the page shows it: cut to ``crop``
    (``picture_crop``) and each of ``covers`` painted over it (a box as fractions of the part shown,
    left, top, right, bottom, and the colour of what is drawn there); the bytes as they are when
    neither applies, or why nothing of it shows."""
    if not crop and not covers:
        return image
    with Image.open(io.BytesIO(image)) as opened:
        picture = opened.convert("RGB")
    width, height = picture.size
    left, top, right, bottom = crop or (0.0, 0.0, 0.0, 0.0)
    box = (round(left * width), round(top * height), round(width * (1 - right)), round(height * (1 - bottom)))
    if box[2] <= box[0] or box[3] <= box[1]:
        return "its crop shows nothing of it"
    picture = picture.crop(box)
    draw = ImageDraw.Draw(picture)
    for (x0, y0, x1, y1), colour in covers:
        draw.rectangle((x0 * picture.width, y0 * picture.height, x1 * picture.width, y1 * picture.height), fill=colour)
    buffer = io.BytesIO()
    picture.save(buffer, format="PNG", compress_level=1)
    return buffer.getvalue()


def covered_parts(shown: tuple, drawn_over: list[tuple[tuple, str]]) -> list[tuple[tuple, str]]:
    """Where each of ``drawn_over`` (a box on the page and its colour, drawn after the picture) covers
    the picture ``shown`` at the box ``shown`` on the same page, as fractions of the picture."""
    left, top, right, bottom = shown
    width, height = right - left, bottom - top
    parts = []
    for (x0, y0, x1, y1), colour in drawn_over:
        box = (max(x0, left), max(y0, top), min(x1, right), min(y1, bottom))
        if width > 0 and height > 0 and box[2] > box[0] and box[3] > box[1]:
            fractions = (
                (box[0] - left) / width,
                (box[1] - top) / height,
                (box[2] - left) / width,
                (box[3] - top) / height,
            )
            parts.append((fractions, colour))
    return parts
