"""PowerPoint slides: each slide's content as Markdown and its figures from the deck itself, on the
pages of LibreOffice's PDF when page images are asked for.

Per slide: the title as ``#``, then the shapes top to bottom, left to right (a group's shapes
together, where the group stands): text with its bullets, numbers and levels as a Markdown list,
links as ``[text](url)``, tables (a merged cell's words in every cell it spans), charts of any plot type as a table
of their series and SmartArt text as a nested list (both read by ``drawings``), pictures as
``[Picture: alt text]``; then the slide's comments and the speaker notes. A shape that cannot be
read costs only that shape, named with a note; a slide that cannot be read, only that slide.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from pptx import Presentation
from pptx.exc import InvalidXmlError, PackageNotFoundError
from pptx.opc.constants import RELATIONSHIP_TYPE as RT
from pptx.shapes.group import GroupShape
from pptx.shapes.picture import Picture

from ..errors import ReaderError, described, on_time
from ..intake.package import open_cut_if_deep
from ..markup.blocks import Block, BlockKind, Box, Cell, paragraphs
from ..markup.markdown import counter, heading_block, link, list_item, one_line
from ..markup.tables import table_block
from ..models import Extraction, Page
from ..notices import Code, Notice
from ..render.libreoffice import office_pdf
from .drawings import (
    GRAPHIC_CHART,
    GRAPHIC_CHARTEX,
    GRAPHIC_DIAGRAM,
    MC,
    A,
    R,
    chosen,
    external_target,
    graphic_chart,
    graphic_smartart,
    part_root,
    picture_placeholder,
)
from .shapes import IDENTITY, group_transform, shape_box, slide_figures

P = "{http://schemas.openxmlformats.org/presentationml/2006/main}"
P15 = "{http://schemas.microsoft.com/office/powerpoint/2012/main}"
P188 = "{http://schemas.microsoft.com/office/powerpoint/2018/8/main}"
GRAPHIC_TABLE = "http://schemas.openxmlformats.org/drawingml/2006/table"
GRAPHIC_OLE = "http://schemas.openxmlformats.org/presentationml/2006/ole"
MODERN_COMMENTS = "http://schemas.microsoft.com/office/2018/10/relationships/comments"
MODERN_AUTHORS = "http://schemas.microsoft.com/office/2018/10/relationships/authors"
TITLE_TYPES = ("title", "ctrTitle")
BODY_TYPES = (None, "body", "obj")  # placeholders whose text is bulleted by the master's body style
NUMBER_STYLES = {
    "arabic": "decimal",
    "alphaLc": "lowerLetter",
    "alphaUc": "upperLetter",
    "romanLc": "lowerRoman",
    "romanUc": "upperRoman",
}
BULLET_KINDS = (f"{A}buNone", f"{A}buAutoNum", f"{A}buChar", f"{A}buBlip")
MAX_SPAN = 1000  # rows or columns a table's cell may span, whatever a damaged file says


def _number_marker(scheme: str, number: int) -> str:
    """PowerPoint's auto-number scheme ("arabicPeriod", "alphaLcParenR", ...) applied to ``number``."""
    base = next((key for key in NUMBER_STYLES if scheme.startswith(key)), "arabic")
    value = counter(number, NUMBER_STYLES[base])
    rest = scheme[len(base) :]
    if rest.startswith("ParenBoth"):
        return f"({value})"
    if rest.startswith("ParenR"):
        return f"{value})"
    if rest.startswith("Plain"):
        return value
    return f"{value}."


def _placeholder_type(shape) -> str | None:
    """The placeholder's type ("title", "body", ...); None for a placeholder with no type (a
    body, by the standard), "none" for a shape that is no placeholder."""
    ph = shape._element.find(f".//{P}nvPr/{P}ph")
    if ph is None:
        return "none"
    return ph.get("type")


class _Bullets:
    """Whether a paragraph is bulleted or numbered, by PowerPoint's inheritance: the paragraph,
    the shape's list style, its layout and master placeholders, then the master's text styles."""

    def __init__(self, shape, master):
        self.sources = [shape._element.find(f".//{P}txBody/{A}lstStyle")]
        base = shape
        for _ in range(2):  # slide -> layout -> master placeholder
            try:
                base = getattr(base, "_base_placeholder", None) if getattr(base, "is_placeholder", False) else None
            except KeyError:  # the layout or master was left out of a repaired deck
                base = None
            if base is None:
                break
            self.sources.append(base._element.find(f".//{P}txBody/{A}lstStyle"))
        kind = _placeholder_type(shape)
        styles = master._element.find(f"{P}txStyles") if master is not None else None
        style = "titleStyle" if kind in TITLE_TYPES else "bodyStyle" if kind in BODY_TYPES else "otherStyle"
        self.sources.append(styles.find(f"{P}{style}") if styles is not None else None)

    def kind(self, paragraph, level: int):
        """The bullet element that applies (a:buNone, a:buAutoNum, a:buChar, a:buBlip), or None."""
        ppr = paragraph.find(f"{A}pPr")
        for source in [ppr] + [s.find(f"{A}lvl{level + 1}pPr") if s is not None else None for s in self.sources]:
            if source is None:
                continue
            found = next((child for child in source if child.tag in BULLET_KINDS), None)
            if found is not None:
                return found
        return None


def _runs_markdown(paragraph, part) -> str:
    """A paragraph's runs, fields and line breaks, with links as [text](url)."""
    pieces: list[tuple[str, str | None]] = []
    for child in paragraph:
        if child.tag in (f"{A}r", f"{A}fld"):
            text = "".join(node.text or "" for node in child.iter(f"{A}t"))
            click = child.find(f"{A}rPr/{A}hlinkClick")
            pieces.append((text, external_target(part, click.get(f"{R}id") if click is not None else None)))
        elif child.tag == f"{A}br":
            pieces.append(("\n", None))
    merged: list[tuple[str, str | None]] = []
    for text, target in pieces:  # consecutive runs to the same target make one link
        if merged and merged[-1][1] == target:
            merged[-1] = (merged[-1][0] + text, target)
        else:
            merged.append((text, target))
    return "".join(link(text, target) if target else text for text, target in merged)


def text_frame_blocks(shape, part, master) -> list[Block]:
    """A shape's paragraphs as blocks: a heading for a title, list items with their bullets or
    numbers and levels, plain paragraphs otherwise."""
    body = shape._element.find(f".//{P}txBody")
    if body is None:
        body = shape._element.find(f".//{A}txBody")
    if body is None:
        return []
    is_title = _placeholder_type(shape) in TITLE_TYPES
    if is_title:
        text = one_line(" ".join(_runs_markdown(p, part) for p in body.findall(f"{A}p")))
        return [heading_block(1, text)] if text else []
    bullets = _Bullets(shape, master)
    blocks: list[Block] = []
    counters: dict = {}
    for paragraph in body.findall(f"{A}p"):
        text = _runs_markdown(paragraph, part).strip()
        ppr = paragraph.find(f"{A}pPr")
        level = (
            min(int(ppr.get("lvl", "0")), 8) if ppr is not None and ppr.get("lvl", "0").isdigit() else 0
        )  # PowerPoint's nine levels
        if not text:
            continue
        kind = bullets.kind(paragraph, level)
        for deeper in [key for key in counters if key > level]:
            del counters[deeper]
        if kind is None or kind.tag == f"{A}buNone":
            counters.pop(level, None)
            if level == 0:
                blocks.append(Block(BlockKind.PARAGRAPH, text))
                continue
            marker = ""
        elif kind.tag == f"{A}buAutoNum":
            start = kind.get("startAt", "1")
            counters[level] = counters.get(level, (int(start) if start.isdigit() else 1) - 1) + 1
            marker = _number_marker(kind.get("type", "arabicPeriod"), counters[level])
        else:
            counters.pop(level, None)
            marker = "-"
        blocks.append(Block(BlockKind.LIST_ITEM, list_item(level, marker, text), level=level))
    return blocks


def _table(graphic_frame, part) -> list[Block]:
    """The table: a merged cell's words in every cell it spans, so each row and column reads whole
    (a row label merged down several rows labels each of them)."""
    rows = []
    for tr in graphic_frame.iter(f"{A}tr"):
        row = []
        for tc in tr.findall(f"{A}tc"):
            if tc.get("vMerge") in ("1", "true") or tc.get("hMerge") in ("1", "true"):
                continue  # covered by the cell above or on its left, which spans it
            body = tc.find(f"{A}txBody")
            paragraphs = [_runs_markdown(p, part).strip() for p in body.findall(f"{A}p")] if body is not None else []
            row.append(
                Cell(
                    "<br>".join(one_line(text) for text in paragraphs if text),
                    _span(tc.get("rowSpan")),
                    _span(tc.get("gridSpan")),
                )
            )
        rows.append(row)
    return [table] if (table := table_block(rows)) else []


def _span(value: str | None) -> int:
    return max(1, min(int(value), MAX_SPAN)) if value and value.isdigit() else 1


def _graphic_blocks(element, part, name: str) -> list[Block]:
    """A graphic frame's table, chart, SmartArt or embedded object."""
    data = element.find(f".//{A}graphicData")
    uri = data.get("uri") if data is not None else None
    if uri == GRAPHIC_TABLE:
        return _table(element, part)
    if uri in (GRAPHIC_CHART, GRAPHIC_CHARTEX):
        return [graphic_chart(data, part, f"Chart “{name}”")]
    if uri == GRAPHIC_DIAGRAM:
        return [Block(BlockKind.FIGURE, graphic_smartart(data, part, f"Diagram: {_alt_text(element) or name}"))]
    if uri == GRAPHIC_OLE:
        ole = data.find(f".//{P}oleObj")
        program = ole.get("progId") if ole is not None else None
        return [Block(BlockKind.FIGURE, f"[Embedded object: {program or name}]")]
    return [Block(BlockKind.FIGURE, f"[{name}: a graphic ReadLens does not read]")]


def _alt_text(element) -> str:
    properties = element.find(f".//{P}cNvPr")
    return one_line((properties.get("descr") or properties.get("title") or "") if properties is not None else "")


def _position(element) -> tuple[int, int, int]:
    """A shape's top, left and height (EMU), from its own frame."""
    frame = element.find(f"./*/{A}xfrm")
    if frame is None:
        frame = element.find(f"./{P}xfrm")
    offset = frame.find(f"{A}off") if frame is not None else None
    extent = frame.find(f"{A}ext") if frame is not None else None
    try:
        top, left = (int(offset.get("y", "0")), int(offset.get("x", "0"))) if offset is not None else (0, 0)
        return top, left, max(int(extent.get("cy", "0")), 0) if extent is not None else 0
    except ValueError:  # a damaged position: the shape is still read, first
        return 0, 0, 0


@dataclass(frozen=True)
class _Space:
    """The slide's size (EMU) and the transform of the group a shape is in onto the slide (``shapes``)."""

    width: int
    height: int
    transform: tuple = IDENTITY

    def box(self, element, shape=None) -> Box | None:
        """The shape's box as fractions of the slide; a placeholder without a frame of its own stands where
        its layout's does (python-pptx's ``left``, ``top``, ``width`` and ``height``)."""
        try:
            inherited = (shape.left, shape.top, shape.width, shape.height) if shape is not None else None
        except (AttributeError, KeyError, ValueError):  # a layout left out of a repaired deck, a damaged number
            inherited = None
        if inherited is not None and None in inherited:
            inherited = None
        return shape_box(element, self.transform, self.width, self.height, inherited)

    def inside(self, group) -> _Space:
        return replace(self, transform=group_transform(group, self.transform))


def _reading_order(items: list) -> list:
    """Shapes (``(position, ...)``) as a person reads them: in rows top to bottom, each row left to
    right. A shape starting above the middle of the row's first shape (the shorter of the two) is
    in its row, so boxes set side by side read left to right even when one stands a little higher."""
    rows: list[list] = []
    for item in sorted(items, key=lambda item: item[0][:2]):
        top, _, height = item[0]
        if rows:
            first_top, _, first_height = rows[-1][0][0]
            if top < first_top + min(height, first_height) / 2:
                rows[-1].append(item)
                continue
        rows.append([item])
    return [item for row in rows for item in sorted(row, key=lambda item: (item[0][1], item[0][0]))]


def shape_blocks(shape, part, master, space: _Space) -> list[Block]:
    """A shape's blocks, each with the shape's box on the slide (a group's, each of its shapes')."""
    element = shape._element
    if isinstance(shape, GroupShape):
        return _shapes_blocks(list(shape.shapes), element, part, master, space.inside(element))
    if element.tag == f"{P}graphicFrame":
        blocks = _graphic_blocks(element, part, shape.name)
    elif isinstance(shape, Picture) or element.tag == f"{P}pic":
        alt = _alt_text(element)
        media = next(
            (
                kind
                for tag, kind in ((f"{A}videoFile", "Video"), (f"{A}audioFile", "Audio"))
                if element.find(f".//{tag}") is not None
            ),
            None,
        )
        shown = (f"[{media}: {alt}]" if alt else f"[{media}]") if media else picture_placeholder(element, part, alt)
        blocks = [Block(BlockKind.FIGURE, shown)]
    else:
        blocks = text_frame_blocks(shape, part, master)
    box = space.box(element, shape)
    return [replace(block, box=box) for block in blocks]


def _alternate_blocks(element, part, master, space: _Space) -> list[Block]:
    """mc:AlternateContent in the shape tree, which python-pptx skips (a newer chart type, a
    3-D model): its first choice, the content PowerPoint itself shows."""
    from pptx.shapes.shapetree import BaseShapeFactory

    blocks: list[Block] = []
    for child in chosen(element):
        if isinstance(child.tag, str):
            shape = BaseShapeFactory(child, None)  # type: ignore[arg-type]  # no parent: its part is passed apart
            blocks += shape_blocks(shape, part, master, space)
    return blocks


def _shapes_blocks(shapes, tree, part, master, space: _Space) -> list[Block]:
    """Each shape's blocks in reading order (``_reading_order``); a shape that fails is named instead."""
    items = [(_position(shape._element), shape._element, shape) for shape in shapes]
    items += [
        (_position(next((c for c in alt.iter() if c.tag in (f"{P}graphicFrame", f"{P}sp", f"{P}pic")), alt)), alt, None)
        for alt in (tree.findall(f"{MC}AlternateContent") if tree is not None else [])
    ]
    blocks = []
    for _, element, shape in _reading_order(items):
        on_time()
        try:
            found = (
                shape_blocks(shape, part, master, space)
                if shape is not None
                else _alternate_blocks(element, part, master, space)
            )
            blocks += [replace(found[0], apart=True), *found[1:]] if found else []  # a list of its own
        except ReaderError:  # the reading's time is up (``on_time``): no shape's damage
            raise
        except Exception as error:  # one shape that cannot be read costs only that shape
            name = shape.name if shape is not None else "content"
            blocks.append(Block(BlockKind.PARAGRAPH, f"[Shape “{name}” could not be read: {described(error)}]"))
    return blocks


class _Comments:
    """Slide comments, classic (p:cmLst) and modern threaded ones (p188:cmLst), with authors."""

    def __init__(self, deck):
        self.authors: dict[str, str] = {}
        for rel in deck.part.rels.values():
            if rel.is_external or rel.reltype not in (RT.COMMENT_AUTHORS, MODERN_AUTHORS):
                continue
            try:
                authors = part_root(rel.target_part)
            except Exception:  # damaged author list: the comments still read, as by "unknown"
                continue
            for author in authors:
                if isinstance(author.tag, str) and author.get("id") is not None:
                    self.authors[author.get("id")] = author.get("name") or "unknown"

    def _author(self, element) -> str:
        return self.authors.get(element.get("authorId"), "unknown")

    def lines(self, slide) -> list[str]:
        out = []
        for rel in slide.part.rels.values():
            if rel.is_external or rel.reltype not in (RT.COMMENTS, MODERN_COMMENTS):
                continue
            try:
                comments = part_root(rel.target_part)
            except Exception as error:  # damaged comments cost only the comments
                out.append(f"[The slide's comments could not be read: {type(error).__name__}]")
                continue
            for comment in comments:
                if comment.tag == f"{P}cm":
                    text = one_line(comment.findtext(f"{P}text") or "")
                    reply = comment.find(f".//{P15}parentCm") is not None
                    out.append(f"> **{'Reply' if reply else 'Comment'}** by {self._author(comment)}: {text}")
                elif comment.tag == f"{P188}cm":
                    out.append(f"> **Comment** by {self._author(comment)}: {self._modern_text(comment)}")
                    for reply in comment.iter(f"{P188}reply"):
                        out.append(f"> **Reply** by {self._author(reply)}: {self._modern_text(reply)}")
        return out

    @staticmethod
    def _modern_text(element) -> str:
        body = element.find(f"{P188}txBody")
        return (
            one_line(" ".join("".join(t.text or "" for t in p.iter(f"{A}t")) for p in body.iter(f"{A}p")))
            if body is not None
            else ""
        )


def slide_blocks(slide, comments: _Comments, space: _Space) -> list[Block]:
    """One slide as a text-only model should receive it: its title first, each shape's blocks with the
    shape's box, then its comments and speaker notes."""
    try:
        master = slide.slide_layout.slide_master
    except KeyError:  # the layout or master was left out of a repaired deck: its slides are still read
        master = None
    shapes = list(slide.shapes)
    title = next((shape for shape in shapes if _placeholder_type(shape) in TITLE_TYPES), None)
    blocks = _shapes_blocks([title], None, slide.part, master, space) if title is not None else []
    blocks += _shapes_blocks(
        [shape for shape in shapes if shape is not title], slide.shapes._spTree, slide.part, master, space
    )
    blocks += [Block(BlockKind.PARAGRAPH, line) for line in comments.lines(slide)]
    if slide.has_notes_slide and slide.notes_slide.notes_text_frame is not None:
        blocks += paragraphs(
            f"Speaker notes:\n{notes}" if (notes := slide.notes_slide.notes_text_frame.text.strip()) else ""
        )
    return blocks


def slide_pages(job) -> Extraction:
    """The deck's slide count, the selected slides, the PDF they come from and their figures as
    found: each slide's Markdown and its figures from the deck (``shapes``); with images asked for,
    on the pages of LibreOffice's PDF (bare pages without it)."""
    notices: list[Notice] = []
    try:
        deck, job = open_cut_if_deep(job, Presentation, notices)  # a part nested past what python-pptx parses: cut
        slides = list(deck.slides)  # AttributeError: a slide's part lost its content type, so is no slide
    except (PackageNotFoundError, InvalidXmlError, KeyError, ValueError, SyntaxError, AttributeError) as error:
        raise ReaderError(
            "CORRUPT_FILE",
            f"{job.name} is damaged and cannot be opened as a PowerPoint "
            f"deck ({type(error).__name__}). Save it again from PowerPoint.",
        ) from None
    comments = _Comments(deck)
    pdf = office_pdf(job, notices) if job.options.images else None
    if pdf is not None:
        from ..pdf.pages import read_pdf_pages  # pdfplumber and pdfium: only for a deck whose images are asked for

        extraction = read_pdf_pages(job, pdf, job.sha256, text_from_pdf=False)
        extraction.notices[:0] = notices
    else:
        extraction = Extraction(
            len(slides), [Page(number=n) for n in job.select(len(slides), notices)], notices=notices
        )
    pages, found_figures = extraction.pages, dict[int, list]()
    space = _Space(deck.slide_width or 1, deck.slide_height or 1)
    for page in pages:
        page.blocks, found_figures[page.number], page.figures = [], [], []
        if page.number > len(slides):
            continue
        slide = slides[page.number - 1]
        try:
            page.blocks = slide_blocks(slide, comments, space)
        except ReaderError:
            raise
        except Exception as error:  # one slide that cannot be read costs only that slide
            extraction.notices.append(
                Notice(
                    Code.DAMAGED,
                    f"Slide {page.number} of {job.name} could not be read ({described(error)}).",
                    page.number,
                )
            )
            page.blocks = [Block(BlockKind.PARAGRAPH, f"[This slide could not be read: {type(error).__name__}]")]
        try:
            found_figures[page.number] = slide_figures(slide, deck.slide_width or 1, deck.slide_height or 1)
        except Exception as error:  # its figures are lost, not its text
            extraction.notices.append(
                Notice(
                    Code.NOT_PLACED,
                    f"The pictures of slide {page.number} of {job.name} could not be placed ({described(error)}).",
                    page.number,
                )
            )
        page.figures = [found.figure for found in found_figures[page.number]]
    extraction.figures = found_figures
    return extraction
