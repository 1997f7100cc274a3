"""What a Word paragraph holds, walked run by run: the inline half of the walker.

Text as Word shows it: hidden runs and deleted text left out, a field's result and never its code (a page
number in a header or footer, right on one page only, is left out too), HYPERLINK fields and hyperlinks as
``[text](url)``, equations as LaTeX (``math``), check boxes as ``[x]`` and ``[ ]``. What hangs on a paragraph
is collected as it is met: footnote and endnote marks with their notes, comments with the text they are on and
their replies, text boxes, pictures as ``[Picture: alt text]``, charts and SmartArt (read by
``readers.office.drawings``), old-style VML shapes.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from contextlib import contextmanager
from typing import Any

from ...markup.blocks import BlockKind
from ...markup.markdown import link, one_line
from ..drawings import (
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
    picture_placeholder,
)
from .blocks import Block
from .math import latex
from .styles import W14, W, is_on

WP = "{http://schemas.openxmlformats.org/drawingml/2006/wordprocessingDrawing}"
M = "{http://schemas.openxmlformats.org/officeDocument/2006/math}"
V = "{urn:schemas-microsoft-com:vml}"
GRAPHIC_PICTURE = PICTURE = "http://schemas.openxmlformats.org/drawingml/2006/picture"
PIC = f"{{{PICTURE}}}"
GRAPHIC_GROUP = "http://schemas.microsoft.com/office/word/2010/wordprocessingGroup"
VML_SHAPES = {f"{V}{name}" for name in ("shape", "rect", "roundrect", "oval", "line", "polyline", "arc", "curve")}
QUOTE_LIMIT = 80  # characters of commented text quoted with a comment
PAGE_FIELDS = ("PAGE", "NUMPAGES", "SECTIONPAGES")  # in a header or footer they differ on every page
FIELD_HYPERLINK = re.compile(r'^\s*HYPERLINK\s+"([^"]*)"')  # an internal link (HYPERLINK \l "bookmark") stays text


EMPHASIS, EMPHASIS_END = "\ue000", "\ue001"  # round a bold or italic run's words until the paragraph is whole
MARKS = {"b": "**", "i": "*", "e": "***"}  # bold, italic, both
SCRIPTS = {"superscript": "sup", "subscript": "sub"}  # raised and lowered runs, as HTML Markdown keeps: x<sup>2</sup>


def emphasised(markdown: str, shown: bool = True) -> str:
    """A paragraph's Markdown with its bold and italic runs as ``**bold**`` and ``*italic*``
    (or, not ``shown``, as plain words): neighbouring runs alike are one, and the spaces at an
    emphasis's ends stand outside its marks, as Markdown needs them."""
    if EMPHASIS not in markdown:
        return markdown
    segments: list[list[str]] = []  # [emphasis, words]
    for index, piece in enumerate(re.split(f"{EMPHASIS}|{EMPHASIS_END}", markdown)):
        kind = piece[:1] if index % 2 and piece[:1] in MARKS else ""
        words = piece[1:] if kind else piece
        if segments and (kind == segments[-1][0] or not words.strip()):
            segments[-1][1] += words  # the same emphasis, or only spaces between
        elif words:
            segments.append([kind, words])
    out = []
    for kind, words in segments:
        core = words.strip()
        if kind and core and shown:
            start = words[: len(words) - len(words.lstrip())]
            out.append(f"{start}{MARKS[kind]}{core}{MARKS[kind]}{words[len(start) + len(core) :]}")
        else:
            out.append(words)
    return "".join(out)


class Text:
    """The inline content of one paragraph: Markdown, plain text, and what hangs on it."""

    def __init__(self):
        self.markdown: list[str] = []
        self.plain: list[str] = []
        self.after: list[Block] = []  # text boxes, comments, charts: blocks after the paragraph
        self.notes: list[str] = []  # footnote definitions for the bottom of the page
        self.pictures = 0
        self.math: list[str] = []  # its equations, as LaTeX

    def add(self, markdown: str, plain: str = "") -> None:
        self.markdown.append(markdown)
        self.plain.append(plain)


def _outside_boxes(shape, tag: str):
    """The ``tag`` elements of a drawing or VML shape that are not inside one of its text boxes:
    a box's content (its pictures, charts, boxes) is read once, as the box's own blocks."""
    for element in shape.iter(tag):
        ancestor = element.getparent()
        while ancestor is not shape and ancestor.tag != f"{W}txbxContent":
            ancestor = ancestor.getparent()
        if ancestor is shape:
            yield element


class Inline:
    """The inline half of the document walker (``walker._Document``), which provides the state it
    reads and adds to: ``fields`` (open complex fields, outermost first), ``open_comments``, the
    notes and comments by id with the parts they live in, ``tracked_changes``, ``in_margin``, ``emphasis``, ``script``,
    ``notes``, ``endnote_blocks`` and ``drawn``, and ``blocks()`` for the stories a run holds (text boxes,
    notes, comments)."""

    fields: list[dict]
    open_comments: dict[str, list[str]]
    footnotes: dict[str, Any]
    endnotes: dict[str, Any]
    comments: dict[str, dict]
    footnote_part: Any
    endnote_part: Any
    comment_part: Any
    footnote_count: int
    endnote_blocks: list[Block]
    notes: list[tuple[str, str]]
    in_margin: bool
    blocks: Callable[..., list[Block]]

    def _shown(self) -> bool:
        """Text is shown unless it is a field's code (between its begin and separate)."""
        return all(f["result"] for f in self.fields)

    def _emit(self, text: Text, markdown: str, plain: str | None = None) -> None:
        if not self._shown():
            return
        plain = markdown if plain is None else plain
        text.add(markdown, plain)
        for quoted in self.open_comments.values():
            quoted.append(plain)

    def inline(self, element, text: Text, part) -> None:
        for child in element:
            tag = child.tag
            if not isinstance(tag, str) or tag == f"{W}pPr":
                continue
            if tag == f"{W}r":
                self.run(child, text, part)
            elif tag == f"{W}hyperlink":
                inner = Text()
                self.inline(child, inner, part)
                if self._shown():  # its words already went into any comment's quote
                    text.add(
                        link("".join(inner.markdown), external_target(part, child.get(f"{R}id"))), "".join(inner.plain)
                    )
                text.after += inner.after
                text.notes += inner.notes
                text.pictures += inner.pictures
            elif tag in (f"{W}del", f"{W}moveFrom"):
                self.tracked_changes = True
            elif tag in (f"{W}ins", f"{W}moveTo"):
                self.tracked_changes = True
                self.inline(child, text, part)
            elif tag == f"{W}fldSimple":
                field = {"instr": child.get(f"{W}instr", "")}
                self.fields.append({**field, "result": self._result_shown(field)})
                start = len(text.markdown)
                self.inline(child, text, part)
                self._end_field(text, start, self.fields.pop())
            elif tag == f"{W}commentRangeStart":
                self.open_comments[child.get(f"{W}id")] = []
            elif tag == f"{W}commentRangeEnd":
                pass  # the quote ends at the comment's reference mark
            elif tag == f"{M}oMathPara":
                self.inline(child, text, part)
            elif tag == f"{M}oMath":
                formula = latex(child)
                if formula and self._shown():
                    text.math.append(formula)
                self._emit(
                    text, f"${formula}$" if formula else "", "".join(node.text or "" for node in child.iter(f"{M}t"))
                )
            elif tag == f"{W}sdt" and (box := child.find(f"{W}sdtPr/{W14}checkbox")) is not None:
                checked = box.find(f"{W14}checked")
                ticked = checked is not None and checked.get(f"{W14}val", "1") in ("1", "true", "on")
                self._emit(text, "[x]" if ticked else "[ ]", "".join(child.itertext()))  # the glyph, as printed
            elif tag == f"{W}sdt":
                content = child.find(f"{W}sdtContent")
                self.inline(content if content is not None else child, text, part)
            elif tag == f"{MC}AlternateContent":
                self.inline(chosen(child), text, part)
            else:
                self.inline(child, text, part)  # smartTag, customXml, bdo, dir: their runs count

    def _result_shown(self, field: dict) -> bool:
        """A field's result is shown, except a page number in a header or footer, which is only
        right on one page."""
        words = field["instr"].split()
        return not (self.in_margin and words and words[0].upper() in PAGE_FIELDS)

    def _end_field(self, text: Text, start: int, field: dict) -> None:
        """A HYPERLINK field's result becomes a link to its target."""
        target = FIELD_HYPERLINK.match(field["instr"])
        if target and start <= len(text.markdown) and self._shown():
            label = "".join(text.markdown[start:]).strip()
            plain = "".join(text.plain[start:])
            del text.markdown[start:], text.plain[start:]
            text.add(link(label, target.group(1) or None), plain)

    def run(self, r, text: Text, part) -> None:
        rpr = r.find(f"{W}rPr")
        if rpr is not None and is_on(rpr.find(f"{W}vanish")):
            return  # hidden text: Word does not show it
        bold = rpr is not None and is_on(rpr.find(f"{W}b"))
        italic = rpr is not None and is_on(rpr.find(f"{W}i"))
        self.emphasis = "e" if bold and italic else "b" if bold else "i" if italic else ""
        vertical = rpr.find(f"{W}vertAlign") if rpr is not None else None
        self.script = SCRIPTS.get(vertical.get(f"{W}val")) if vertical is not None else None
        try:
            self.run_content(r, text, part)
        finally:
            self.emphasis, self.script = "", None

    def run_content(self, r, text: Text, part) -> None:
        for child in r:
            tag = child.tag
            if tag == f"{W}t":
                words = (child.text or "").replace(EMPHASIS, "").replace(EMPHASIS_END, "")
                if self.script and words.strip():
                    words = f"<{self.script}>{words}</{self.script}>"
                self._emit(text, f"{EMPHASIS}{self.emphasis}{words}{EMPHASIS_END}" if self.emphasis else words, words)
            elif tag == f"{W}fldChar":
                kind = child.get(f"{W}fldCharType")
                if kind == "begin":
                    self.fields.append({"instr": "", "result": False})
                elif kind == "separate" and self.fields:
                    self.fields[-1].update(
                        result=self._result_shown(self.fields[-1]), text=text, start=len(text.markdown)
                    )
                elif kind == "end" and self.fields:
                    field = self.fields.pop()
                    if field.get("text") is text:  # a field across paragraphs (a table of contents) stays text
                        self._end_field(text, field["start"], field)
            elif tag == f"{W}instrText":
                if self.fields and not self.fields[-1]["result"]:
                    self.fields[-1]["instr"] += child.text or ""
            elif tag in (f"{W}tab", f"{W}ptab"):
                self._emit(text, " ")
            elif tag in (f"{W}br", f"{W}cr"):
                self._emit(text, " " if child.get(f"{W}type") in ("page", "column") else "\n", " ")
            elif tag == f"{W}noBreakHyphen":
                self._emit(text, "-")
            elif tag == f"{W}footnoteReference":
                self._note_reference(child, text)
            elif tag == f"{W}endnoteReference":
                self._endnote_reference(child, text)
            elif tag == f"{W}commentReference":
                self._comment(child.get(f"{W}id"), text)
            elif tag == f"{W}drawing":
                self.drawing(child, text, part)
            elif tag in (f"{W}pict", f"{W}object"):
                self.vml(child, text, part)
            elif tag == f"{MC}AlternateContent":
                self.run_content(chosen(child), text, part)

    def _note_reference(self, reference, text: Text) -> None:
        note = self.footnotes.get(reference.get(f"{W}id"))
        self.footnote_count += 1
        label = f"[^{self.footnote_count}]"
        self._emit(text, label, "")
        if note is not None:
            body, plain = self._aside(note, self.footnote_part)
            self.notes.append((str(self.footnote_count), plain))
            text.notes.append(f"{label}: {body}")

    def _endnote_reference(self, reference, text: Text) -> None:
        note = self.endnotes.get(reference.get(f"{W}id"))
        label = f"[^e{len(self.endnote_blocks) + 1}]"
        self._emit(text, label, "")
        body, plain = self._aside(note, self.endnote_part)
        self.endnote_blocks.append(Block(f"{label}: {body}", plain))

    @contextmanager
    def _story(self):
        """Walk a note, comment, header or footer apart from the text around it: a field or
        comment range left open there (a damaged part) cannot hide the body, and the commented
        text being quoted goes on without it."""
        saved, self.fields, self.open_comments = (self.fields, self.open_comments), [], {}
        try:
            yield
        finally:
            self.fields, self.open_comments = saved

    def _aside(self, element, part) -> tuple[str, str]:
        """A note's or comment's (Markdown on one line, plain text)."""
        with self._story():
            blocks = self.blocks(element, part) if element is not None else []
        return " ".join(one_line(block.compact or block.markdown) for block in blocks), "".join(
            block.plain for block in blocks
        )

    def _comment(self, comment_id: str, text: Text) -> None:
        """The comment after the paragraph its range ends in, with the text it is on, and its
        replies right after it (a reply's own mark adds nothing)."""
        comment = self.comments.get(comment_id)
        quoted = one_line("".join(self.open_comments.pop(comment_id, [])))
        if comment is None or comment["parent"] is not None:
            return
        if len(quoted) > QUOTE_LIMIT:
            quoted = quoted[:QUOTE_LIMIT].rsplit(" ", 1)[0] + "…"
        on = f' on "{quoted}"' if quoted else ""
        text.after.append(
            Block(
                f"> **Comment** by {comment['author']}{on}: {self._aside(comment['element'], self.comment_part)[0]}",
                aside=True,
            )
        )
        for reply_id in comment["replies"]:
            reply = self.comments[reply_id]
            text.after.append(
                Block(
                    f"> **Reply** by {reply['author']}: {self._aside(reply['element'], self.comment_part)[0]}",
                    aside=True,
                )
            )

    def drawing(self, drawing, text: Text, part) -> None:
        if any(data.get("uri") != GRAPHIC_PICTURE for data in drawing.iter(f"{A}graphicData")):
            self.drawn = True  # a shape, text box, chart or diagram: drawn on the page as vectors
        properties = drawing.find(f".//{WP}docPr")
        alt = one_line((properties.get("descr") or properties.get("title") or "") if properties is not None else "")
        for box in _outside_boxes(drawing, f"{W}txbxContent"):
            text.after.extend(self.blocks(box, part))
        for data in _outside_boxes(drawing, f"{A}graphicData"):
            uri = data.get("uri")
            if uri == GRAPHIC_PICTURE:
                self._picture(text, picture_placeholder(data, part, alt))
            elif uri == GRAPHIC_GROUP:  # a group's pictures stand in it as pic:pic, each with its own alt text
                for picture in _outside_boxes(data, f"{PIC}pic"):
                    own = picture.find(f"{PIC}nvPicPr/{PIC}cNvPr")
                    own = one_line((own.get("descr") or own.get("title") or "") if own is not None else "")
                    self._picture(text, picture_placeholder(picture, part, own or alt))
            elif uri in (GRAPHIC_CHART, GRAPHIC_CHARTEX):
                chart = graphic_chart(data, part, f"Chart “{alt}”" if alt else "Chart")
                text.after.append(Block(chart.text, kind=chart.kind, cells=list(chart.rows)))
            elif uri == GRAPHIC_DIAGRAM:
                diagram = graphic_smartart(data, part, f"Diagram: {alt}" if alt else "Diagram")
                text.after.append(Block(diagram, kind=BlockKind.FIGURE))

    def _picture(self, text: Text, placeholder: str) -> None:
        if self._shown():
            text.pictures += 1
        self._emit(text, f"{placeholder} ", "")  # apart from the words after it (a paragraph's end is trimmed)

    def vml(self, element, text: Text, part) -> None:
        """Old-style (VML) shapes: text boxes and pictures with their alt text."""
        if any(
            shape.tag in VML_SHAPES and (shape.tag != f"{V}shape" or shape.find(f"{V}imagedata") is None)
            for shape in element.iter()
        ):
            self.drawn = True  # a shape drawn as vectors, not a picture in a frame
        for box in _outside_boxes(element, f"{W}txbxContent"):
            text.after.extend(self.blocks(box, part))
        for image in _outside_boxes(element, f"{V}imagedata"):
            shape = image.getparent()
            alt = one_line(shape.get("alt") or image.get("{urn:schemas-microsoft-com:office:office}title") or "")
            self._picture(text, f"[Picture: {alt}]" if alt else "[Picture]")
            break
