"""Word documents: the structure from the document itself, the pages from LibreOffice's render.

The document's XML is walked in reading order into Markdown blocks: headings (by outline level,
so localized and custom heading styles count), lists numbered as Word numbers them, links as
``[text](url)``, tables in place (merged cells once), footnotes (at the end of their page) and
endnotes, comments (author and text, after what they comment on), text boxes, pictures as
``[Picture: alt text]``, charts and SmartArt text, field results (never field codes), and each
section's headers and footers once. Tracked changes read as accepted, with a warning.

Each block is then placed on the page where LibreOffice's PDF shows it (``placement.py``), so
page numbers match what a person sees in Word. Without LibreOffice the same blocks are one page.
"""

from __future__ import annotations

import re
from contextlib import contextmanager
from dataclasses import dataclass, field, replace

import docx
from docx.opc.constants import RELATIONSHIP_TYPE as RT
from docx.opc.exceptions import PackageNotFoundError

from ..drawings import (A, GRAPHIC_CHART, GRAPHIC_CHARTEX, GRAPHIC_DIAGRAM, MC, R, chosen, external_target, graphic_chart, graphic_smartart,
                        part_root, picture_placeholder, related_part)
from ..errors import ReaderError
from ..markdown import counter, heading, join_blocks, link, list_item, one_line
from ..models import Page
from ..office import office_pdf
from ..placement import Passage, letters, place_blocks, rendered_pages
from ..tables import markdown_table
from .pdf import read_pdf_pages

W = "{http://schemas.openxmlformats.org/wordprocessingml/2006/main}"
WP = "{http://schemas.openxmlformats.org/drawingml/2006/wordprocessingDrawing}"
M = "{http://schemas.openxmlformats.org/officeDocument/2006/math}"
V = "{urn:schemas-microsoft-com:vml}"
W14 = "{http://schemas.microsoft.com/office/word/2010/wordml}"
W15 = "{http://schemas.microsoft.com/office/word/2012/wordml}"
GRAPHIC_PICTURE = "http://schemas.openxmlformats.org/drawingml/2006/picture"
COMMENTS_EXTENDED = "http://schemas.microsoft.com/office/2011/relationships/commentsExtended"
BODY_LEVEL = 9  # outline level 9 is body text; 0-8 are heading levels 1-9
MAX_COLUMNS = 63  # the most columns a Word table can have
QUOTE_LIMIT = 80  # characters of commented text quoted with a comment
PAGE_FIELDS = ("PAGE", "NUMPAGES", "SECTIONPAGES")  # in a header or footer they differ on every page
RENDERED_NAME = "office-letters.v1.json"  # the rendered pages' letters; raise the version when letters() changes
FIELD_HYPERLINK = re.compile(r'^\s*HYPERLINK\s+"([^"]*)"')  # an internal link (HYPERLINK \l "bookmark") stays text


@dataclass
class Block:
    """One paragraph, list item, table, comment, ... of the document, as Markdown.

    ``plain`` is its text as the page shows it (no Markdown, no link targets): what finds its
    page in the render. Blocks with no ``plain`` (comments, notes) follow the block before them.
    ``top``/``bottom`` are shown at the top and the bottom of the page the block is on: headers,
    and footnotes and footers.
    """

    markdown: str
    plain: str = ""
    item: bool = False
    top: list[str] = field(default_factory=list)
    bottom: list[str] = field(default_factory=list)
    pictures: int = 0
    compact: str = ""  # a table's cells on one line, for a header or a cell that holds it
    rows: list[list[str]] = field(default_factory=list)  # a table's cells, to cut it where pages break
    row_letters: list[int] = field(default_factory=list)  # how many letters each row shows
    heading_rows: int = 0  # rows Word repeats at the top of each page the table runs onto
    repeated: str = ""  # the text of those rows
    aside: bool = False  # a comment: it stays outside the table cell it was made in


class _Text:
    """The inline content of one paragraph: Markdown, plain text, and what hangs on it."""

    def __init__(self):
        self.markdown: list[str] = []
        self.plain: list[str] = []
        self.after: list[Block] = []  # text boxes, comments, charts: blocks after the paragraph
        self.notes: list[str] = []  # footnote definitions for the bottom of the page
        self.pictures = 0

    def add(self, markdown: str, plain: str = "") -> None:
        self.markdown.append(markdown)
        self.plain.append(plain)


def _int(value, default: int) -> int:
    """An attribute's whole number; a damaged one counts as ``default``."""
    try:
        return int(value)
    except (TypeError, ValueError):
        return default


def _columns(element, default: int) -> int:
    """How many grid columns a w:gridSpan or w:gridBefore covers: at most Word's 63, whatever a
    damaged or hostile file says (a span of two billion would fill the memory)."""
    return min(max(_int(element.get(f"{W}val"), default), 0), MAX_COLUMNS)


def _list_level(value) -> int:
    """A list level (w:ilvl) clamped to Word's nine, whatever a damaged file says."""
    return min(max(_int(value, 0), 0), 8)


def _num_pr(num) -> tuple[str | None, int | None]:
    """A w:numPr's list (numId) and level (ilvl, clamped to Word's nine levels); None for each
    one it does not give, both when there is no numPr."""
    if num is None:
        return None, None
    found_id, found_level = num.find(f"{W}numId"), num.find(f"{W}ilvl")
    return (found_id.get(f"{W}val") if found_id is not None else None,
            _list_level(found_level.get(f"{W}val")) if found_level is not None else None)


def _on(element) -> bool:
    """A toggle such as w:vanish: present and not switched off."""
    return element is not None and element.get(f"{W}val", "true") not in ("0", "false", "off")


def _outside_boxes(shape, tag: str):
    """The ``tag`` elements of a drawing or VML shape that are not inside one of its text boxes:
    a box's content (its pictures, charts, boxes) is read once, as the box's own blocks."""
    for element in shape.iter(tag):
        ancestor = element.getparent()
        while ancestor is not shape and ancestor.tag != f"{W}txbxContent":
            ancestor = ancestor.getparent()
        if ancestor is shape:
            yield element


class _Numbering:
    """List numbers as Word shows them: each level's format and text ("%1.%2."), counters that
    continue across a list's paragraphs and restart deeper levels."""

    def __init__(self, root):
        self.abstract: dict[str, dict[int, tuple[str, str, int]]] = {}
        self.links: dict[str, str] = {}  # abstractNum -> list style it takes its levels from
        self.nums: dict[str, tuple[str, dict[int, int]]] = {}
        self.counters: dict[str, list[int | None]] = {}
        self.started: set[str] = set()
        if root is None:
            return
        for abstract in root.findall(f"{W}abstractNum"):
            levels = {}
            for level in abstract.findall(f"{W}lvl"):
                levels[_int(level.get(f"{W}ilvl"), 0)] = self._level(level)
            self.abstract[abstract.get(f"{W}abstractNumId")] = levels
            style_link = abstract.find(f"{W}numStyleLink")
            if style_link is not None:
                self.links[abstract.get(f"{W}abstractNumId")] = style_link.get(f"{W}val")
        for num in root.findall(f"{W}num"):
            abstract_id = num.find(f"{W}abstractNumId")
            overrides = {}
            for override in num.findall(f"{W}lvlOverride"):
                start = override.find(f"{W}startOverride")
                if start is not None:
                    overrides[_list_level(override.get(f"{W}ilvl"))] = _int(start.get(f"{W}val"), 1)
            if abstract_id is not None:
                self.nums[num.get(f"{W}numId")] = (abstract_id.get(f"{W}val"), overrides)

    @staticmethod
    def _level(level) -> tuple[str, str, int]:
        fmt, text, start = level.find(f"{W}numFmt"), level.find(f"{W}lvlText"), level.find(f"{W}start")
        return (fmt.get(f"{W}val", "decimal") if fmt is not None else "decimal",
                text.get(f"{W}val", "") if text is not None else "",
                _int(start.get(f"{W}val"), 1) if start is not None else 1)

    def marker(self, num_id: str, ilvl: int, style_num) -> str | None:
        """The item's marker ("-" for a bullet, "2.", "b)", "1.3" ...), or None if not a list."""
        if num_id not in self.nums:
            return None
        abstract_id, overrides = self.nums[num_id]
        levels = self.abstract.get(abstract_id, {})
        if not levels and abstract_id in self.links:
            linked = style_num(self.links[abstract_id])
            if linked and linked in self.nums:
                abstract_id = self.nums[linked][0]
                levels = self.abstract.get(abstract_id, {})
        if ilvl not in levels:
            return None
        counters = self.counters.setdefault(abstract_id, [None] * 10)
        if num_id not in self.started:
            self.started.add(num_id)
            for level, start in overrides.items():
                counters[level] = start - 1
        fmt, text, start = levels[ilvl]
        counters[ilvl] = (counters[ilvl] if counters[ilvl] is not None else start - 1) + 1
        for deeper in range(ilvl + 1, len(counters)):
            counters[deeper] = None
        if fmt == "bullet":
            return "-"
        if fmt == "none":
            return ""

        def number(match) -> str:
            level = int(match.group(1)) - 1
            level_fmt, _, level_start = levels.get(level, ("decimal", "", 1))
            value = counters[level] if counters[level] is not None else level_start
            return counter(value, level_fmt)

        return re.sub(r"%(\d)", number, text).strip() or counter(counters[ilvl], fmt)


class _Styles:
    """Outline level, list and name of each paragraph style, following basedOn."""

    def __init__(self, root):
        self.styles = {}
        self.default = None
        for style in root.findall(f"{W}style") if root is not None else []:
            if style.get(f"{W}type") != "paragraph":
                continue
            style_id = style.get(f"{W}styleId")
            name = style.find(f"{W}name")
            based = style.find(f"{W}basedOn")
            ppr = style.find(f"{W}pPr")
            outline = ppr.find(f"{W}outlineLvl") if ppr is not None else None
            num = ppr.find(f"{W}numPr") if ppr is not None else None
            self.styles[style_id] = {
                "name": name.get(f"{W}val", "") if name is not None else "",
                "based": based.get(f"{W}val") if based is not None else None,
                "outline": _int(outline.get(f"{W}val"), BODY_LEVEL) if outline is not None else None,
                "num": num,
            }
            if style.get(f"{W}default") in ("1", "true"):
                self.default = style_id

    def chain(self, style_id):
        seen = set()
        while style_id in self.styles and style_id not in seen:
            seen.add(style_id)
            yield self.styles[style_id]
            style_id = self.styles[style_id]["based"]

    def lookup(self, style_id, key):
        return next((style[key] for style in self.chain(style_id or self.default) if style[key] is not None), None)

    def name(self, style_id) -> str:
        style = self.styles.get(style_id or self.default)
        return style["name"] if style else ""

    def num_id(self, style_id) -> str | None:
        return _num_pr(self.lookup(style_id, "num"))[0]


class _Document:
    """Walks one document's XML into blocks; see the module docstring for what becomes what."""

    def __init__(self, document):
        self.part = document.part
        self.unreadable: list[str] = []  # parts that could not be read, for a warning
        self.styles = _Styles(self._xml(self.part, RT.STYLES)[1])
        self.numbering = _Numbering(self._xml(self.part, RT.NUMBERING)[1])
        # a note's or comment's links and pictures are relationships of its own part
        self.footnote_part, root = self._xml(self.part, RT.FOOTNOTES)
        self.footnotes = self._notes(root, "footnote")
        self.endnote_part, root = self._xml(self.part, RT.ENDNOTES)
        self.endnotes = self._notes(root, "endnote")
        self.comment_part, root = self._xml(self.part, RT.COMMENTS)
        self.comments = self._comments(root)
        self.fields: list[dict] = []  # open complex fields, outermost first
        self.open_comments: dict[str, list[str]] = {}
        self.footnote_count = 0
        self.endnote_blocks: list[Block] = []
        self.tracked_changes = False
        self.shown_headers: set[str] = set()
        self.in_margin = False  # walking a header or footer
        self.margin_pictures = {"header": 0, "footer": 0}  # the most any one header (footer) shows
        self.edges: list[str] = []  # what the render shows around the blocks: headers, footers, text boxes
        self.notes: list[tuple[str, str]] = []  # and footnotes (their mark, their text)

    # -- package parts ---------------------------------------------------------------------

    def _xml(self, part, reltype):
        """The part ``part`` relates to by ``reltype`` and its XML, (None, None) when there is none;
        a damaged part's XML is None."""
        for rel in part.rels.values():
            if rel.reltype == reltype and not rel.is_external:
                return rel.target_part, self._part_xml(rel.target_part)
        return None, None

    def _part_xml(self, target):
        try:
            return part_root(target)
        except Exception:  # a damaged part costs only what it holds
            self.unreadable.append(str(target.partname).rsplit("/", 1)[-1])
            return None

    @staticmethod
    def _notes(root, kind: str) -> dict[str, object]:
        if root is None:
            return {}
        return {note.get(f"{W}id"): note for note in root.findall(f"{W}{kind}") if note.get(f"{W}type") in (None, "normal")}

    def _comments(self, root) -> dict[str, dict]:
        """Comments by id: author, element, and the ids of their replies (threads in commentsExtended)."""
        if root is None:
            return {}
        parents = {}
        extended = self._xml(self.part, COMMENTS_EXTENDED)[1]
        if extended is not None:
            parents = {entry.get(f"{W15}paraId"): entry.get(f"{W15}paraIdParent") for entry in extended.iter(f"{W15}commentEx")}
        comments, by_paragraph = {}, {}
        for comment in root.findall(f"{W}comment"):
            paragraphs = comment.findall(f"{W}p")
            para_id = paragraphs[-1].get(f"{W14}paraId") if paragraphs else None
            comment_id = comment.get(f"{W}id")
            comments[comment_id] = {"author": comment.get(f"{W}author") or "unknown", "element": comment, "parent": parents.get(para_id), "replies": []}
            by_paragraph[para_id] = comment_id
        for comment_id, comment in comments.items():
            parent = by_paragraph.get(comment["parent"])
            comment["parent"] = parent
            if parent is not None:
                comments[parent]["replies"].append(comment_id)
        return comments

    # -- blocks ----------------------------------------------------------------------------

    def blocks(self, container, part=None) -> list[Block]:
        """The blocks of a body, cell, text box, header, note or comment, in reading order."""
        part = part or self.part
        out: list[Block] = []
        for child in container:
            try:
                out.extend(self.block(child, part))
            except Exception as error:  # one damaged paragraph or table costs only itself
                out.append(Block(f"[A part of the document could not be read: {type(error).__name__}]"))
        return out

    def block(self, child, part) -> list[Block]:
        tag = child.tag
        if tag == f"{W}p":
            return self.paragraph(child, part)
        if tag == f"{W}tbl":
            return self.table(child, part)
        if tag in (f"{W}sdt", f"{W}customXml"):
            content = child.find(f"{W}sdtContent")
            return self.blocks(content if content is not None else child, part)
        if tag in (f"{W}ins", f"{W}moveTo"):
            self.tracked_changes = True
            return self.blocks(child, part)
        if tag in (f"{W}del", f"{W}moveFrom"):
            self.tracked_changes = True
        elif tag == f"{W}altChunk":
            return [Block("[Embedded document: not read]")]
        return []

    def paragraph(self, p, part) -> list[Block]:
        ppr = p.find(f"{W}pPr")
        style_id = outline = num_id = ilvl = None
        if ppr is not None:
            style = ppr.find(f"{W}pStyle")
            style_id = style.get(f"{W}val") if style is not None else None
            level = ppr.find(f"{W}outlineLvl")
            outline = _int(level.get(f"{W}val"), BODY_LEVEL) if level is not None else None
            num_id, ilvl = _num_pr(ppr.find(f"{W}numPr"))
        if outline is None:
            outline = self.styles.lookup(style_id, "outline")
        if num_id is None:
            num_id, style_ilvl = _num_pr(self.styles.lookup(style_id, "num"))
            ilvl = style_ilvl if style_ilvl is not None else ilvl
        ilvl = ilvl or 0
        text = _Text()
        self.inline(p, text, part)
        markdown, plain, pictures = "".join(text.markdown).strip(), "".join(text.plain), text.pictures
        name = self.styles.name(style_id).lower()
        level = None
        if outline is not None and outline < BODY_LEVEL:
            level = outline + 1
        elif name == "title":
            level = 1
        elif re.fullmatch(r"heading ([1-9])", name):
            level = int(name[-1])
        marker = self.numbering.marker(num_id, ilvl, self.styles.num_id) if num_id not in (None, "0") and markdown else None
        blocks = []
        if markdown:
            if level is not None:
                blocks.append(Block(heading(level, f"{marker} {markdown}" if marker and marker != "-" else markdown), plain, pictures=pictures))
            elif marker is not None:
                blocks.append(Block(list_item(ilvl, marker, markdown), plain, item=True, pictures=pictures))
            else:
                blocks.append(Block(markdown, plain, pictures=pictures))
        elif text.notes or text.after:
            blocks.append(Block("", plain))
        if blocks:
            blocks[0].bottom.extend(text.notes)
        for block in text.after:
            self.edges.append(block.plain)
            block.plain = ""  # text boxes, charts, comments go on the page of their anchor paragraph
        return blocks + text.after

    @staticmethod
    def _children(element, tag: str):
        """``tag`` children of ``element``, also those wrapped in content controls or insertions."""
        for child in element:
            if child.tag == tag:
                yield child
            elif child.tag in (f"{W}sdt", f"{W}sdtContent", f"{W}customXml", f"{W}ins"):
                yield from _Document._children(child, tag)

    def table(self, tbl, part) -> list[Block]:
        """The table as Markdown: a merged cell's words in its first cell, the cells it covers empty."""
        rows, plain, bottom, asides, row_plains, heading_rows = [], [], [], [], [], 0
        for tr in self._children(tbl, f"{W}tr"):
            trpr = tr.find(f"{W}trPr")
            if trpr is not None and trpr.find(f"{W}del") is not None:
                self.tracked_changes = True
                continue
            if heading_rows == len(rows) and trpr is not None and _on(trpr.find(f"{W}tblHeader")):
                heading_rows += 1
            before = trpr.find(f"{W}gridBefore") if trpr is not None else None
            row = [""] * (_columns(before, 0) if before is not None else 0)
            shown = len(plain)
            for tc in self._children(tr, f"{W}tc"):
                tcpr = tc.find(f"{W}tcPr")
                span = tcpr.find(f"{W}gridSpan") if tcpr is not None else None
                merge = tcpr.find(f"{W}vMerge") if tcpr is not None else None
                content = self.blocks(tc, part)
                asides += [block for block in content if block.aside]
                content = [block for block in content if not block.aside]
                if merge is not None and merge.get(f"{W}val", "continue") == "continue":
                    text = ""  # covered by the cell above, which holds the words
                else:
                    text = "<br>".join(block.compact or block.markdown.replace("\n", "<br>") for block in content if block.markdown)
                    plain.extend(block.plain for block in content)
                    bottom.extend(line for block in content for line in block.bottom)
                row += [text] + [""] * (_columns(span, 1) - 1 if span is not None else 0)
            rows.append(row)
            row_plains.append("".join(plain[shown:]))
        compact = " · ".join(cell for row in rows for cell in row if cell)
        table = Block(markdown_table(rows), "".join(plain), bottom=bottom, compact=compact, rows=rows, heading_rows=heading_rows,
                      row_letters=[len(letters(text)) for text in row_plains], repeated="".join(row_plains[:heading_rows]))
        return [table, *asides]

    # -- inline content --------------------------------------------------------------------

    def _shown(self) -> bool:
        """Text is shown unless it is a field's code (between its begin and separate)."""
        return all(f["result"] for f in self.fields)

    def _emit(self, text: _Text, markdown: str, plain: str | None = None) -> None:
        if not self._shown():
            return
        plain = markdown if plain is None else plain
        text.add(markdown, plain)
        for quoted in self.open_comments.values():
            quoted.append(plain)

    def inline(self, element, text: _Text, part) -> None:
        for child in element:
            tag = child.tag
            if not isinstance(tag, str) or tag == f"{W}pPr":
                continue
            if tag == f"{W}r":
                self.run(child, text, part)
            elif tag == f"{W}hyperlink":
                inner = _Text()
                self.inline(child, inner, part)
                if self._shown():  # its words already went into any comment's quote
                    text.add(link("".join(inner.markdown), external_target(part, child.get(f"{R}id"))), "".join(inner.plain))
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
            elif tag in (f"{M}oMath", f"{M}oMathPara"):
                self._emit(text, "".join(node.text or "" for node in child.iter(f"{M}t")))
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

    def _end_field(self, text: _Text, start: int, field: dict) -> None:
        """A HYPERLINK field's result becomes a link to its target."""
        target = FIELD_HYPERLINK.match(field["instr"])
        if target and start <= len(text.markdown) and self._shown():
            label = "".join(text.markdown[start:]).strip()
            plain = "".join(text.plain[start:])
            del text.markdown[start:], text.plain[start:]
            text.add(link(label, target.group(1) or None), plain)

    def run(self, r, text: _Text, part) -> None:
        rpr = r.find(f"{W}rPr")
        if rpr is not None and _on(rpr.find(f"{W}vanish")):
            return  # hidden text: Word does not show it
        self.run_content(r, text, part)

    def run_content(self, r, text: _Text, part) -> None:
        for child in r:
            tag = child.tag
            if tag == f"{W}t":
                self._emit(text, child.text or "")
            elif tag == f"{W}fldChar":
                kind = child.get(f"{W}fldCharType")
                if kind == "begin":
                    self.fields.append({"instr": "", "result": False})
                elif kind == "separate" and self.fields:
                    self.fields[-1].update(result=self._result_shown(self.fields[-1]), text=text, start=len(text.markdown))
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

    def _note_reference(self, reference, text: _Text) -> None:
        note = self.footnotes.get(reference.get(f"{W}id"))
        self.footnote_count += 1
        label = f"[^{self.footnote_count}]"
        self._emit(text, label, "")
        if note is not None:
            body, plain = self._aside(note, self.footnote_part)
            self.notes.append((str(self.footnote_count), plain))
            text.notes.append(f"{label}: {body}")

    def _endnote_reference(self, reference, text: _Text) -> None:
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
        return " ".join(one_line(block.compact or block.markdown) for block in blocks), "".join(block.plain for block in blocks)

    def _comment(self, comment_id: str, text: _Text) -> None:
        """The comment after the paragraph its range ends in, with the text it is on, and its
        replies right after it (a reply's own mark adds nothing)."""
        comment = self.comments.get(comment_id)
        quoted = one_line("".join(self.open_comments.pop(comment_id, [])))
        if comment is None or comment["parent"] is not None:
            return
        if len(quoted) > QUOTE_LIMIT:
            quoted = quoted[:QUOTE_LIMIT].rsplit(" ", 1)[0] + "…"
        on = f' on "{quoted}"' if quoted else ""
        text.after.append(Block(f"> **Comment** by {comment['author']}{on}: {self._aside(comment['element'], self.comment_part)[0]}", aside=True))
        for reply_id in comment["replies"]:
            reply = self.comments[reply_id]
            text.after.append(Block(f"> **Reply** by {reply['author']}: {self._aside(reply['element'], self.comment_part)[0]}", aside=True))

    def drawing(self, drawing, text: _Text, part) -> None:
        properties = drawing.find(f".//{WP}docPr")
        alt = one_line((properties.get("descr") or properties.get("title") or "") if properties is not None else "")
        for box in _outside_boxes(drawing, f"{W}txbxContent"):
            text.after.extend(self.blocks(box, part))
        for data in _outside_boxes(drawing, f"{A}graphicData"):
            uri = data.get("uri")
            if uri == GRAPHIC_PICTURE:
                self._picture(text, picture_placeholder(data, part, alt))
            elif uri in (GRAPHIC_CHART, GRAPHIC_CHARTEX):
                text.after.append(Block(graphic_chart(data, part, f"Chart “{alt}”" if alt else "Chart")))
            elif uri == GRAPHIC_DIAGRAM:
                text.after.append(Block(graphic_smartart(data, part, f"Diagram: {alt}" if alt else "Diagram")))

    def _picture(self, text: _Text, placeholder: str) -> None:
        if self._shown():
            text.pictures += 1
        self._emit(text, placeholder, "")

    def vml(self, element, text: _Text, part) -> None:
        """Old-style (VML) shapes: text boxes and pictures with their alt text."""
        for box in _outside_boxes(element, f"{W}txbxContent"):
            text.after.extend(self.blocks(box, part))
        for image in _outside_boxes(element, f"{V}imagedata"):
            shape = image.getparent()
            alt = one_line(shape.get("alt") or image.get("{urn:schemas-microsoft-com:office:office}title") or "")
            self._picture(text, f"[Picture: {alt}]" if alt else "[Picture]")
            break

    # -- headers and footers ---------------------------------------------------------------

    def header_footer(self, sect_pr, kind: str) -> list[str]:
        """The section's headers (or footers) not shown before, each as one line."""
        out = []
        for reference in sect_pr.findall(f"{W}{kind}Reference") if sect_pr is not None else []:
            target = related_part(self.part, reference.get(f"{R}id"))
            if target is None:
                continue
            root = self._part_xml(target)
            if root is None:
                continue
            self.in_margin = True
            try:
                with self._story():
                    blocks = self.blocks(root, target)
            finally:
                self.in_margin = False
            self.margin_pictures[kind] = max(self.margin_pictures[kind], sum(block.pictures for block in blocks))
            self.edges.append("".join(block.plain for block in blocks))
            line = " ".join(one_line(block.compact or block.markdown) for block in blocks if block.markdown)
            if any(char.isalnum() for char in line) and line not in self.shown_headers:
                self.shown_headers.add(line)
                out.append(f"{kind.capitalize()}: {line}")
        return out


@dataclass
class Parsed:
    blocks: list[Block]
    tracked_changes: bool
    margin_pictures: int  # pictures a header and footer show on every page
    edges: list[str]  # text the render shows around the blocks: headers, footers, text boxes
    notes: list[tuple[str, str]]  # and footnotes (their mark, their text)
    unreadable: list[str]  # parts that could not be read


def document_blocks(document) -> Parsed:
    """Every block of the document in reading order.

    Each section's headers go on its first block's page top, its footers on that page's bottom.
    """
    walker = _Document(document)
    body = document.element.body
    blocks: list[Block] = []
    section: list = []
    for child in body:
        if child.tag == f"{W}sectPr":
            blocks.extend(_section(walker, section, child))
            section = []
            continue
        section.append(child)
        ppr = child.find(f"{W}pPr") if child.tag == f"{W}p" else None
        sect_pr = ppr.find(f"{W}sectPr") if ppr is not None else None
        if sect_pr is not None:
            blocks.extend(_section(walker, section, sect_pr))
            section = []
    if section:
        blocks.extend(_section(walker, section, None))
    blocks.extend(walker.endnote_blocks)
    return Parsed(blocks, walker.tracked_changes, sum(walker.margin_pictures.values()), walker.edges, walker.notes, walker.unreadable)


def _section(walker: _Document, elements: list, sect_pr) -> list[Block]:
    headers = walker.header_footer(sect_pr, "header")
    footers = walker.header_footer(sect_pr, "footer")
    blocks = walker.blocks(elements)
    if (headers or footers) and not blocks:
        blocks = [Block("")]
    if blocks:
        blocks[0].top[:0] = headers
        blocks[0].bottom.extend(footers)
    return blocks


def page_text(blocks: list[Block]) -> str:
    """The Markdown of one page: headers, the blocks, then footnotes and footers."""
    top = [(line, False) for block in blocks for line in block.top]
    bottom = [(line, False) for block in blocks for line in block.bottom]
    return join_blocks(top + [(block.markdown, block.item) for block in blocks] + bottom)


def _split_table(block: Block, page: int, breaks: list[tuple[int, int]]) -> list[tuple[Block, int]]:
    """A table that runs over page breaks, cut between rows; each part after the first starts
    with the heading rows Word repeats on every page."""
    heading = block.rows[:block.heading_rows]
    parts, current, counted, cuts = [], [], 0, list(breaks)
    for row, count in zip(block.rows, block.row_letters):
        while cuts and counted >= cuts[0][0]:
            if len(current) > len(heading) or (current and not heading):
                parts.append((current, page))
                current = list(heading)
            page = cuts.pop(0)[1]
        current.append(row)
        counted += count
    parts.append((current, page))
    return [(replace(block, markdown=markdown_table(rows)) if index == 0 else Block(markdown_table(rows)), number)
            for index, (rows, number) in enumerate(parts)]


def split_over_pages(block: Block, page: int, breaks: list[tuple[int, int]]) -> list[tuple[Block, int]]:
    """A paragraph or table that runs over page breaks, cut where the pages break: a paragraph
    between words, a table between rows.

    Only a plain paragraph whose Markdown holds no more letters than it shows (no link target,
    no note mark) is cut; anything else stays whole on the page where it starts.
    """
    if breaks and block.rows:
        return _split_table(block, page, breaks)
    if not breaks or block.item or block.markdown.startswith(("#", "|")) or letters(block.markdown) != letters(block.plain):
        return [(block, page)]
    pieces, words, counted = [], [], 0
    cuts = list(breaks)
    for word in re.findall(r"\S+\s*", block.markdown):
        words.append(word)
        counted += len(letters(word))
        if cuts and counted >= cuts[0][0]:
            pieces.append(("".join(words).strip(), page))
            words, page = [], cuts.pop(0)[1]
    pieces.append(("".join(words).strip(), page))
    return [(replace(block, markdown=text) if index == 0 else Block(text), number) for index, (text, number) in enumerate(pieces) if text]


def _open(job):
    try:
        document = docx.Document(str(job.path))
    except (PackageNotFoundError, KeyError, ValueError, SyntaxError) as error:
        raise ReaderError("CORRUPT_FILE", f"{job.name} is damaged and cannot be opened as a Word document ({type(error).__name__}). Save it again from Word.") from None
    if document.element.tag != f"{W}document":  # what was left of a damaged main part is not a document
        raise ReaderError("CORRUPT_FILE", f"{job.name} is damaged: its main part (word/document.xml) has no document left in it. Save it again from Word.")
    return document


def _rendered(job, pdf) -> list[Passage]:
    """What each page of LibreOffice's PDF shows, kept in the cache beside that PDF."""
    store = job.services.store
    cached = store.get_json(job.sha256, RENDERED_NAME)
    if cached is None:
        cached = [[page.text, page.pictures] for page in rendered_pages(pdf)]
        store.put_json(job.sha256, RENDERED_NAME, cached)
    return [Passage(text, pictures) for text, pictures in cached]


def read(job):
    document = _open(job)
    parsed = document_blocks(document)
    blocks = parsed.blocks
    if parsed.unreadable:
        job.warnings.append(f"Parts of {job.name} are damaged and were left out: {', '.join(dict.fromkeys(parsed.unreadable))}.")
    if parsed.tracked_changes:
        job.warnings.append(f"{job.name} has tracked changes: it is read as if they were all accepted (insertions kept, deletions dropped, moved text where it was moved to).")
    pdf = office_pdf(job)
    if pdf is None:
        return job.reading(1, [Page(number=n, text=page_text(blocks)) for n in job.select(1)])
    count, pages = read_pdf_pages(job, pdf, job.sha256, text_from_pdf=False)
    placed = place_blocks([Passage(block.plain, block.pictures, block.repeated) for block in blocks], _rendered(job, pdf),
                          parsed.edges, parsed.notes, parsed.margin_pictures)
    if placed.unmatched > max(3, placed.matchable // 5):
        job.warnings.append(f"{placed.unmatched} of {placed.matchable} passages of {job.name} were not found in LibreOffice's rendering; they are put on the page of the passage before them, so their page numbers may be off.")
    on_page: dict[int, list[Block]] = {}
    for block, start, breaks in zip(blocks, placed.pages, placed.breaks):
        for piece, number in split_over_pages(block, start, breaks):
            on_page.setdefault(number, []).append(piece)
    for page in pages:
        if page.error is None:
            page.text = page_text(on_page.get(page.number, []))
            page.tables = []
    return job.reading(count, pages)
