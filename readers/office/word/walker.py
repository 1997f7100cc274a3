"""The Word document walker: the document's XML, in reading order, into Markdown blocks.

Headings (by outline level, so localized and custom heading styles count), lists numbered as Word
numbers them (``styles``), tables in place (a merged cell's words in every cell it spans, a table
in a cell after its table, the rows Word repeats on each page marked), paragraphs with what their
runs hold (``inline``: emphasis, links, footnotes and endnotes, comments, text boxes, pictures,
charts, SmartArt, field results, equations), and each section's headers and footers by type
(first page, even pages, the others). Tracked changes read as accepted, and are noted so the
reader can warn. A damaged part, paragraph or table costs only what it holds.
"""

from __future__ import annotations

import re
from dataclasses import replace

import docx
from docx.opc.constants import RELATIONSHIP_TYPE as RT
from docx.opc.exceptions import PackageNotFoundError

from ...errors import ReaderError, on_time
from ...intake.package import open_cut_if_deep
from ...markup.blocks import BlockKind, Cell
from ...markup.markdown import heading, list_item, one_line
from ...markup.tables import markdown_table
from ...notices import Notice
from ...render.placement import letters
from ..drawings import R, part_root, related_part
from .blocks import Block, Margins, Parsed
from .inline import Inline, Text, emphasised
from .styles import BODY_LEVEL, W14, Numbering, Styles, W, attribute_int, is_on, num_pr

TASK = re.compile(r"\[[x ]\] ")  # a paragraph led by a check box (``inline``)
W15 = "{http://schemas.microsoft.com/office/word/2012/wordml}"
COMMENTS_EXTENDED = "http://schemas.microsoft.com/office/2011/relationships/commentsExtended"
MAX_COLUMNS = 63  # the most columns a Word table can have
# A table's text past this is cut between rows: a cell merged over 63 columns and 3,000 rows, its
# words in every cell it spans, made 68 million characters of a 114 KB file.
MAX_TABLE_CHARS = 500_000
# A document's paragraphs and tables read at most: the walker takes some 15 µs a paragraph (a million
# took 20 s of CPU and 1.2 GB); 200,000 are some 5,000 pages.
MAX_BLOCKS = 200_000


def _columns(element, default: int) -> int:
    """How many grid columns a w:gridSpan or w:gridBefore covers: at most Word's 63, whatever a
    damaged or hostile file says (a span of two billion would fill the memory)."""
    return min(max(attribute_int(element.get(f"{W}val"), default), 0), MAX_COLUMNS)


class _Document(Inline):
    """Walks one document's XML into blocks; see the module docstring for what becomes what.
    A paragraph's runs are walked by the inline half it inherits (``inline.Inline``)."""

    def __init__(self, document):
        self.part = document.part
        self.unreadable: list[str] = []  # parts that could not be read, for a warning
        self.cut: list[str] = []  # what was cut to the bounds, for a warning
        self.styles = Styles(self._xml(self.part, RT.STYLES)[1])
        self.numbering = Numbering(self._xml(self.part, RT.NUMBERING)[1])
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
        self.nested_tables = 0  # tables in a table's cell, numbered in the document
        self.margin_lines: dict[str, str] = {}  # each header and footer part's line, by part name
        self.in_margin = False  # walking a header or footer
        self.drawn = False  # the document draws shapes, text boxes, charts or diagrams
        self.script = None  # the run being walked is raised ("sup") or lowered ("sub")
        self.emphasis = ""  # the run being walked is bold ("b"), italic ("i") or both ("e")
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
        return {
            note.get(f"{W}id"): note for note in root.findall(f"{W}{kind}") if note.get(f"{W}type") in (None, "normal")
        }

    def _comments(self, root) -> dict[str, dict]:
        """Comments by id: author, element, the comment whose thread they reply in, and their replies.

        A comment is a reply only where commentsExtended links its last paragraph's w14:paraId to
        another comment's: LibreOffice and Word before 2013 write no paraIds, and their comments
        all stand alone. A parent no comment has, or a loop, leaves a plain comment (a reply is
        shown only under its thread's first comment, so a wrong link would hide it)."""
        if root is None:
            return {}
        parents = {}
        extended = self._xml(self.part, COMMENTS_EXTENDED)[1]
        if extended is not None:
            parents = {
                entry.get(f"{W15}paraId"): entry.get(f"{W15}paraIdParent") for entry in extended.iter(f"{W15}commentEx")
            }
            parents.pop(None, None)  # an entry naming no paragraph of its own cannot make a comment without one a reply
        comments: dict[str, dict] = {}
        by_paragraph: dict = {}
        para_ids: dict = {}
        for comment in root.findall(f"{W}comment"):
            paragraphs = comment.findall(f"{W}p")
            comment_id = comment.get(f"{W}id")
            comments[comment_id] = {
                "author": comment.get(f"{W}author") or "unknown",
                "element": comment,
                "parent": None,
                "replies": [],
            }
            para_ids[comment_id] = paragraphs[-1].get(f"{W14}paraId") if paragraphs else None
            if para_ids[comment_id]:
                by_paragraph.setdefault(para_ids[comment_id], comment_id)
        for comment_id, comment in comments.items():
            first, seen = comment_id, {comment_id}
            # an older Word's reply to a reply names the reply: climb to the thread's first comment
            while (parent := by_paragraph.get(parents.get(para_ids[first]))) is not None and parent not in seen:
                first = parent
                seen.add(parent)
            if parent is None and first != comment_id:
                comment["parent"] = first
                comments[first]["replies"].append(comment_id)
        return comments

    # -- blocks ----------------------------------------------------------------------------

    def blocks(self, container, part=None) -> list[Block]:
        """The blocks of a body, cell, text box, header, note or comment, in reading order."""
        part = part or self.part
        out: list[Block] = []
        for child in container:
            on_time()
            try:
                out.extend(self.block(child, part))
            except ReaderError:  # the reading's time is up (``on_time``): no part of it is damage
                raise
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
            outline = attribute_int(level.get(f"{W}val"), BODY_LEVEL) if level is not None else None
            num_id, ilvl = num_pr(ppr.find(f"{W}numPr"))
        if outline is None:
            outline = self.styles.lookup(style_id, "outline")
        if num_id is None:
            num_id, style_ilvl = num_pr(self.styles.lookup(style_id, "num"))
            ilvl = style_ilvl if style_ilvl is not None else ilvl
        ilvl = ilvl or 0
        text = Text()
        self.inline(p, text, part)
        name = self.styles.name(style_id).lower()
        level = None
        if outline is not None and outline < BODY_LEVEL:
            level = outline + 1
        elif name == "title":
            level = 1
        elif re.fullmatch(r"heading ([1-9])", name):
            level = int(name[-1])
        # a heading, a header or a footer is emphasised as a whole already
        markdown = emphasised("".join(text.markdown), level is None and not self.in_margin)
        markdown = re.sub(r"[ \t]+\n", "\n", markdown).strip()  # no spaces at a line's end (after a picture)
        markdown = markdown.replace("</sup><sup>", "").replace("</sub><sub>", "")  # raised runs side by side are one
        plain, pictures = "".join(text.plain), text.pictures
        compact = ""
        if text.math and "".join(markdown.split()) == "".join(f"${formula}$" for formula in text.math).replace(" ", ""):
            # equations standing alone are displayed, each on its own; inline where a table cell holds them
            compact, markdown = markdown, "\n\n".join(f"$${formula}$$" for formula in text.math)
        marker = (
            self.numbering.marker(num_id, ilvl, self.styles.num_id) if num_id not in (None, "0") and markdown else None
        )
        blocks = []
        if markdown:
            if level is not None:
                blocks.append(
                    Block(
                        heading(level, f"{marker} {markdown}" if marker and marker != "-" else markdown),
                        plain,
                        BlockKind.HEADING,
                        min(level, 6),
                        pictures=pictures,
                    )
                )
            elif marker is not None or TASK.match(markdown):  # a paragraph led by a check box is a task
                item = list_item(ilvl, marker or "-", markdown)
                blocks.append(Block(item, plain, BlockKind.LIST_ITEM, ilvl, pictures=pictures))
            else:
                kind = (
                    BlockKind.FORMULA
                    if compact
                    else BlockKind.FIGURE
                    if pictures and not plain.strip()
                    else BlockKind.CAPTION
                    if name == "caption"
                    else BlockKind.PARAGRAPH
                )
                blocks.append(Block(markdown, plain, kind, pictures=pictures, compact=compact))
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
        """The table as Markdown: a merged cell's words in every cell it spans, across and down (its
        text for placement once); a table in a cell after the table, its place in the cell marked.
        A table of one cell is a box round its content, which stands as it is."""
        cells: list[list] = []  # each row's cells: their blocks, the columns they span, covered
        asides: list = []
        heading_rows = 0
        for tr in self._children(tbl, f"{W}tr"):
            trpr = tr.find(f"{W}trPr")
            if trpr is not None and trpr.find(f"{W}del") is not None:
                self.tracked_changes = True
                continue
            if heading_rows == len(cells) and trpr is not None and is_on(trpr.find(f"{W}tblHeader")):
                heading_rows += 1
            before = trpr.find(f"{W}gridBefore") if trpr is not None else None
            row: list[tuple[list, int, bool]] = [([], 1, False)] * (_columns(before, 0) if before is not None else 0)
            for tc in self._children(tr, f"{W}tc"):
                tcpr = tc.find(f"{W}tcPr")
                span = tcpr.find(f"{W}gridSpan") if tcpr is not None else None
                merge = tcpr.find(f"{W}vMerge") if tcpr is not None else None
                content = self.blocks(tc, part)
                asides += [block for block in content if block.aside]
                covered = merge is not None and merge.get(f"{W}val", "continue") == "continue"  # by the cell above
                kept = [] if covered else [block for block in content if not block.aside]
                row.append((kept, _columns(span, 1) if span is not None else 1, covered))
            cells.append(row)
        if len(cells) == 1 and len(cells[0]) == 1:
            return [*cells[0][0][0], *asides]
        rows: list[list[str]] = []
        plain: list = []
        bottom: list = []
        row_plains: list = []
        nested: list = []
        size = 0
        spans: list[list[list]] = []  # each row's cells that start in it: [text, rows spanned, columns spanned]
        starts: dict[int, list] = {}  # the cell covering each column, as far down as it reaches
        for row in cells:
            shown, texts, starting = len(plain), list[str](), list[list]()
            for content, span, covered in row:
                if covered:
                    above = rows[-1] if rows else []
                    if len(texts) in starts:
                        starts[len(texts)][1] += 1
                    texts += [above[len(texts)] if len(texts) < len(above) else ""] * span
                    continue
                parts = []
                for block in content:
                    plain.append(block.plain)
                    bottom.extend(block.bottom)
                    if block.rows:
                        self.nested_tables += 1
                        parts.append(f"[table {self.nested_tables}, below]")
                        nested += [  # aside: a table round this one passes them on as they are
                            Block(f"Table {self.nested_tables}, in the table above:", aside=True),
                            replace(block, plain="", aside=True),
                        ]
                    elif block.markdown:
                        parts.append(block.compact or block.markdown.replace("\n", "<br>"))
                starting.append(["<br>".join(parts), 1, span])
                for column in range(len(texts), len(texts) + span):
                    starts[column] = starting[-1]
                texts += ["<br>".join(parts)] * span
            size += sum(map(len, texts))
            if size > MAX_TABLE_CHARS and rows:
                note = f"rows 1–{len(rows):,} of {len(cells):,} shown: its text is over {MAX_TABLE_CHARS:,} characters"
                nested.insert(0, Block(f"({note})"))
                self.cut.append(f"a table's {note}; the rest of the table is left out")  # said in a warning too
                break
            rows.append(texts)
            spans.append(starting)
            row_plains.append("".join(plain[shown:]))
        table = Block(
            markdown_table(rows),
            "".join(plain),
            BlockKind.TABLE,
            bottom=bottom,
            compact=" · ".join(dict.fromkeys(cell for row in rows for cell in row if cell)),
            rows=rows,
            cells=[tuple(Cell(text, down, across) for text, down, across in row) for row in spans],
            heading_rows=heading_rows,
            row_letters=[len(letters(text)) for text in row_plains],
            repeated="".join(row_plains[:heading_rows]),
        )
        return [table, *nested, *asides]

    # -- headers and footers ---------------------------------------------------------------

    def header_footer(self, sect_pr, kind: str) -> dict[str, str]:
        """The section's own headers (or footers) by type (``first``, ``even``, ``default``), each as
        one line; a part several sections share is read once."""
        out = {}
        for reference in sect_pr.findall(f"{W}{kind}Reference") if sect_pr is not None else []:
            target = related_part(self.part, reference.get(f"{R}id"))
            if target is None:
                continue
            name = str(target.partname)
            if name not in self.margin_lines:
                self.margin_lines[name] = self._margin_line(target, kind)
            out[reference.get(f"{W}type", "default")] = self.margin_lines[name]
        return out

    def _margin_line(self, target, kind: str) -> str:
        """A header's or footer's text on one line ("" when it shows no words)."""
        root = self._part_xml(target)
        if root is None:
            return ""
        self.in_margin = True
        try:
            with self._story():
                blocks = self.blocks(root, target)
        finally:
            self.in_margin = False
        self.margin_pictures[kind] = max(self.margin_pictures[kind], sum(block.pictures for block in blocks))
        self.edges.append("".join(block.plain for block in blocks))
        line = " ".join(one_line(block.compact or block.markdown) for block in blocks if block.markdown)
        return line if any(char.isalnum() for char in line) else ""


def document_blocks(document) -> Parsed:
    """Every block of the document in reading order.

    Each section's first block carries the section's headers and footers (``Margins``), which
    page assembly puts in the furniture of the pages the section is on.
    """
    walker = _Document(document)
    body = document.element.body
    blocks: list[Block] = []
    section: list = []
    margins, sections = Margins({}, {}, False), 1
    for index, child in enumerate(body):
        if index == MAX_BLOCKS:
            walker.cut.append(
                f"its paragraphs and tables past the {MAX_BLOCKS:,}th (of {len(body):,}) are left out, more than a "
                "reading takes"
            )
            break
        if child.tag == f"{W}sectPr":
            margins = _section(walker, section, child, margins, blocks)
            section = []
            continue
        section.append(child)
        ppr = child.find(f"{W}pPr") if child.tag == f"{W}p" else None
        sect_pr = ppr.find(f"{W}sectPr") if ppr is not None else None
        if sect_pr is not None:
            margins = _section(walker, section, sect_pr, margins, blocks)
            section, sections = [], sections + 1
    if section:
        _section(walker, section, None, margins, blocks)
    blocks.extend(walker.endnote_blocks)
    return Parsed(
        blocks,
        walker.tracked_changes,
        sum(walker.margin_pictures.values()),
        walker.edges,
        walker.notes,
        walker.unreadable,
        _even_and_odd(document),
        walker.drawn,
        sections,
        walker.cut,
    )


def _section(walker: _Document, elements: list, sect_pr, previous: Margins, out: list[Block]) -> Margins:
    """The section's blocks added to ``out``, the first carrying its headers and footers (those
    it does not define are ``previous``'s); returns them for the next section."""
    margins = Margins(
        {**previous.headers, **walker.header_footer(sect_pr, "header")},
        {**previous.footers, **walker.header_footer(sect_pr, "footer")},
        sect_pr is not None and is_on(sect_pr.find(f"{W}titlePg")),
    )
    blocks = walker.blocks(elements)
    if not blocks and (any(margins.headers.values()) or any(margins.footers.values())):
        blocks = [Block("")]
    if blocks:
        blocks[0].margins = margins
    out.extend(blocks)
    return margins


def _even_and_odd(document) -> bool:
    """Whether even pages have headers and footers of their own (the settings' evenAndOddHeaders)."""
    try:
        return bool(document.settings.odd_and_even_pages_header_footer)
    except Exception:  # a damaged settings part: one header for every page
        return False


def open_document(job, notices: list[Notice]):
    """The job's file as a python-docx document, and the job to read from then on; ``CORRUPT_FILE``
    when it is none. A part nested past what python-docx's parser takes is read cut (``open_cut_if_deep``)."""
    try:
        document, job = open_cut_if_deep(job, lambda path: docx.Document(str(path)), notices)
    except (PackageNotFoundError, KeyError, ValueError, SyntaxError) as error:
        raise ReaderError(
            "CORRUPT_FILE",
            f"{job.name} is damaged and cannot be opened as a Word document "
            f"({type(error).__name__}). Save it again from Word.",
        ) from None
    if document.element.tag != f"{W}document" or document.element.body is None:  # what was left is no document
        raise ReaderError(
            "CORRUPT_FILE",
            f"{job.name} is damaged: its main part (word/document.xml) has "
            "no document left in it. Save it again from Word.",
        )
    return document, job
