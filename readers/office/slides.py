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

from pptx import Presentation
from pptx.exc import InvalidXmlError, PackageNotFoundError
from pptx.opc.constants import RELATIONSHIP_TYPE as RT
from pptx.shapes.group import GroupShape
from pptx.shapes.picture import Picture

from ..errors import ReaderError, described, on_time
from ..intake.package import open_cut_if_deep
from ..markup.markdown import counter, heading, join_blocks, link, list_item, one_line
from ..markup.tables import markdown_table
from ..models import Extraction, FoundFigure, Page
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
from .shapes import slide_figures

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


def text_frame_blocks(shape, part, master) -> list[tuple[str, bool]]:
    """A shape's paragraphs as Markdown blocks: headings for titles, list items with their
    bullets or numbers and levels, plain paragraphs otherwise."""
    body = shape._element.find(f".//{P}txBody")
    if body is None:
        body = shape._element.find(f".//{A}txBody")
    if body is None:
        return []
    is_title = _placeholder_type(shape) in TITLE_TYPES
    if is_title:
        text = one_line(" ".join(_runs_markdown(p, part) for p in body.findall(f"{A}p")))
        return [(heading(1, text), False)] if text else []
    bullets = _Bullets(shape, master)
    blocks, counters = [], {}
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
            blocks.append((text, False) if level == 0 else (list_item(level, "", text), True))
        elif kind.tag == f"{A}buAutoNum":
            start = kind.get("startAt", "1")
            counters[level] = counters.get(level, (int(start) if start.isdigit() else 1) - 1) + 1
            blocks.append(
                (list_item(level, _number_marker(kind.get("type", "arabicPeriod"), counters[level]), text), True)
            )
        else:
            counters.pop(level, None)
            blocks.append((list_item(level, "-", text), True))
    return blocks


def _table(graphic_frame, part) -> str:
    """The table as Markdown: a merged cell's words in every cell it spans, so each row and column
    reads whole (a row label merged down several rows labels each of them)."""
    rows = []
    for tr in graphic_frame.iter(f"{A}tr"):
        row = []
        for tc in tr.findall(f"{A}tc"):
            if tc.get("vMerge") in ("1", "true"):  # covered by the cell above (which may span columns too)
                above = rows[-1] if rows else []
                row.append(above[len(row)] if len(row) < len(above) else "")
                continue
            if tc.get("hMerge") in ("1", "true"):  # covered by the cell on its left
                row.append(row[-1] if row else "")
                continue
            body = tc.find(f"{A}txBody")
            paragraphs = [_runs_markdown(p, part).strip() for p in body.findall(f"{A}p")] if body is not None else []
            row.append("<br>".join(one_line(text) for text in paragraphs if text))
        rows.append(row)
    return markdown_table(rows)


def _graphic_blocks(element, part, name: str) -> list[tuple[str, bool]]:
    """A graphic frame's table, chart, SmartArt or embedded object."""
    data = element.find(f".//{A}graphicData")
    uri = data.get("uri") if data is not None else None
    if uri == GRAPHIC_TABLE:
        return [(_table(element, part), False)]
    if uri in (GRAPHIC_CHART, GRAPHIC_CHARTEX):
        return [(graphic_chart(data, part, f"Chart “{name}”"), False)]
    if uri == GRAPHIC_DIAGRAM:
        return [(graphic_smartart(data, part, f"Diagram: {_alt_text(element) or name}"), False)]
    if uri == GRAPHIC_OLE:
        ole = data.find(f".//{P}oleObj")
        program = ole.get("progId") if ole is not None else None
        return [(f"[Embedded object: {program or name}]", False)]
    return [(f"[{name}: a graphic ReadLens does not read]", False)]


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


def shape_blocks(shape, part, master) -> list[tuple[str, bool]]:
    if isinstance(shape, GroupShape):
        return [(text, False) for text in _shapes_text(list(shape.shapes), shape._element, part, master)]
    element = shape._element
    if element.tag == f"{P}graphicFrame":
        return _graphic_blocks(element, part, shape.name)
    if isinstance(shape, Picture) or element.tag == f"{P}pic":
        alt = _alt_text(element)
        for media, kind in ((f"{A}videoFile", "Video"), (f"{A}audioFile", "Audio")):
            if element.find(f".//{media}") is not None:
                return [(f"[{kind}: {alt}]" if alt else f"[{kind}]", False)]
        return [(picture_placeholder(element, part, alt), False)]
    return text_frame_blocks(shape, part, master)


def _alternate_blocks(element, part, master) -> list[tuple[str, bool]]:
    """mc:AlternateContent in the shape tree, which python-pptx skips (a newer chart type, a
    3-D model): its first choice, the content PowerPoint itself shows."""
    from pptx.shapes.shapetree import BaseShapeFactory

    blocks = []
    for child in chosen(element):
        if isinstance(child.tag, str):
            blocks += shape_blocks(BaseShapeFactory(child, None), part, master)
    return blocks


def _shapes_text(shapes, tree, part, master) -> list[str]:
    """Each shape's Markdown in reading order (``_reading_order``; one shape's list stays apart
    from the next one's); a shape that fails is named instead."""
    items = [(_position(shape._element), shape._element, shape) for shape in shapes]
    items += [
        (_position(next((c for c in alt.iter() if c.tag in (f"{P}graphicFrame", f"{P}sp", f"{P}pic")), alt)), alt, None)
        for alt in (tree.findall(f"{MC}AlternateContent") if tree is not None else [])
    ]
    texts = []
    for _, element, shape in _reading_order(items):
        on_time()
        try:
            texts.append(
                join_blocks(
                    shape_blocks(shape, part, master) if shape is not None else _alternate_blocks(element, part, master)
                )
            )
        except ReaderError:  # the reading's time is up (``on_time``): no shape's damage
            raise
        except Exception as error:  # one shape that cannot be read costs only that shape
            name = shape.name if shape is not None else "content"
            texts.append(f"[Shape “{name}” could not be read: {described(error)}]")
    return texts


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


def slide_text(slide, comments: _Comments) -> str:
    """One slide as a text-only model should receive it: Markdown, title first."""
    try:
        master = slide.slide_layout.slide_master
    except KeyError:  # the layout or master was left out of a repaired deck: its slides are still read
        master = None
    shapes = list(slide.shapes)
    title = next((shape for shape in shapes if _placeholder_type(shape) in TITLE_TYPES), None)
    texts = _shapes_text([title], None, slide.part, master) if title is not None else []
    texts += _shapes_text([shape for shape in shapes if shape is not title], slide.shapes._spTree, slide.part, master)
    blocks = [(text, False) for text in texts] + [(line, False) for line in comments.lines(slide)]
    if slide.has_notes_slide and slide.notes_slide.notes_text_frame is not None:
        notes = slide.notes_slide.notes_text_frame.text.strip()
        if notes:
            blocks.append((f"Speaker notes:\n{notes}", False))
    return join_blocks(blocks)


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
    pages, found_figures = extraction.pages, {}
    for page in pages:
        page.tables, found_figures[page.number], page.figures = [], [], []
        if page.number > len(slides):
            page.text = ""
            continue
        slide = slides[page.number - 1]
        try:
            page.text = slide_text(slide, comments)
        except ReaderError:
            raise
        except Exception as error:  # one slide that cannot be read costs only that slide
            extraction.notices.append(
                Notice(Code.DAMAGED, f"Slide {page.number} of {job.name} could not be read ({described(error)}).")
            )
            page.text = f"[This slide could not be read: {type(error).__name__}]"
        try:
            found = slide_figures(slide, deck.slide_width or 1, deck.slide_height or 1)
            found_figures[page.number] = [FoundFigure.of(figure) for figure in found]
        except Exception as error:  # its figures are lost, not its text
            extraction.notices.append(
                Notice(
                    Code.NOT_PLACED,
                    f"The pictures of slide {page.number} of {job.name} could not be placed ({described(error)}).",
                )
            )
        page.figures = [found.figure for found in found_figures[page.number]]
    extraction.figures = found_figures
    return extraction
