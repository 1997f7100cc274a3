"""HTML as Markdown: the one HTML-to-Markdown step (web pages, feeds, EPUB chapters, e-mail bodies).

A web page is read whole but for its chrome (navigation, banners, sidebars, cookie notices:
``readers.markup.chrome``), and markdownify writes it as Markdown in document order: headings,
lists, code, links with their targets (but a link to a place on the page, whose anchor the Markdown
does not keep: its text), and tables with every row, their spans carried (``readers.markup.html_tables``).

Nothing is lost to the parser's own limits: lxml reads text runs of any length and nesting up to
2,048 levels (``huge_tree``); a page nested deeper, or deeper than the converter follows (a few
hundred levels), is read flattened (``_flattened``: its text in its paragraphs), and a page of more
than ``MAX_ELEMENTS`` elements is read up to that many. Either is said in a warning.
"""

from __future__ import annotations

import itertools
import re
import textwrap

import lxml.html
from bs4 import NavigableString
from lxml.etree import ParserError
from markdownify import MarkdownConverter

from ..errors import on_time
from ..notices import Code, Notice
from .blocks import Block
from .chrome import drop_chrome
from .html_tables import flat_table, is_layout, layout_cells, table_markdown
from .markdown import markdown_blocks
from .text import decode

NOT_CONTENT = "//script|//style|//noscript|//template|//head|//*[@hidden]"  # never shown
BREAK_HINTS = str.maketrans(
    {"\u00ad": None, "\u200b": None, "\u2060": None, "\ufeff": None, "\u2011": "-"}
)  # a soft hyphen, a zero-width space, a word joiner, a zero-width no-break space, a non-breaking hyphen: hints
# for a line break (zero-width joiners and non-joiners stay: they shape Persian words and emoji)
SPACES = re.compile(r"(?<=[^\s|]) {2,}(?=[^\s|])")  # between words, not an empty table cell's "|  |"
CHARSET_HEAD = 4096  # bytes searched for a declared charset: HTML asks for it within the first 1024
# Elements converted at most: markdownify takes some 100 µs and 1 KB an element (a table of 2,000,000
# cells took minutes and gigabytes); a long encyclopaedia article has a few thousand, 50,000 take some 10 s.
MAX_ELEMENTS = 50_000
STARTS = re.compile(r"<[a-zA-Z]")  # an element's start tag
ROW, ROW_END = re.compile(r"<tr[\s>]", re.I), re.compile(r"</tr", re.I)
ROW_SEARCH = 100_000  # characters searched back for the start of the table row the cut falls in
# An element HTML writes without an end tag, written self-closed for BeautifulSoup's parser, which
# otherwise keeps a list of them that each later end tag is looked up in (``<div></div><br>`` runs
# took minutes); lxml escapes ">" in attribute values, so a tag ends at its first ">".
VOID = re.compile(r"<(area|base|br|col|embed|hr|img|input|link|meta|param|source|track|wbr)\b([^>]*?)/?>")
# What a flattened page keeps of its markup: raw text elements go (their text is no page's), a tag
# (its attributes quoted or not) is read in one pass, paragraphs and breaks stay, other blocks
# become a break and inline elements nothing. A script or comment left open runs to the page's end,
# as in a browser (and each one open is not looked for to the end again).
RAW_TEXT = re.compile(r"<(script|style)\b.*?(?:</\1\s*>|\Z)", re.I | re.S)
TAG = re.compile(r"<!--.*?(?:-->|\Z)|<(/?)([a-zA-Z][\w:-]*)(?:[^>\"']|\"[^\"]*\"|'[^']*')*>", re.S)
FLAT_KEPT = {"html", "head", "title", "body", "p", "br"}
INLINE = {"a", "abbr", "b", "big", "cite", "code", "del", "dfn", "em", "font", "i", "ins", "kbd", "mark", "nobr", "q"}
INLINE |= {"s", "samp", "small", "span", "strike", "strong", "sub", "sup", "time", "tt", "u", "var"}


def decode_html(data: bytes, name: str, notices: list[Notice], default: str | None = None) -> str:
    """The page's text in the charset it declares (its XML declaration, which rules an XHTML file
    such as an EPUB chapter, else its <meta>), else in ``default`` (the charset its container gives,
    an e-mail's codepage), else as detected."""
    head = data[:CHARSET_HEAD]
    declared = re.match(rb"""\s*<\?xml[^>]*?encoding\s*=\s*["']([\w.:-]+)""", head) or re.search(
        rb"""<meta[^>]+charset\s*=\s*["']?([\w.:-]+)""", head, re.I
    )
    charset = declared.group(1).decode("ascii") if declared else default
    if (
        declared and charset and charset.lower().startswith(("utf-16", "utf-32"))
    ):  # found as ASCII bytes, so the file is not in it: HTML's rule reads UTF-8
        charset = "utf-8"
    return decode(data, name, notices, charset)


def _raised(script: dict[int, int]):
    """A superscript or subscript of digits and signs as the Unicode characters for them (x², CO₂):
    as plain digits, x2 reads as a name; any other (a note's [1], 1st) as it is."""

    def implementation(self, el, text, parent_tags):
        raised = text.strip()
        if raised.startswith("["):  # a note's mark: apart from the word it follows, which stays that word
            return f" {text.lstrip()}"
        return raised.translate(script) if raised and set(raised) <= set(map(chr, script)) else text

    return implementation


def _once(kind: set[str], convert):
    """An emphasis inside the same emphasis (``<b><strong>``, ``<s><del>``) is marked once, not twice."""

    def implementation(self, el, text, parent_tags):
        return text if kind & parent_tags else convert(self, el, text, parent_tags)

    return implementation


# markdownify's own convert_ methods, which its stubs (__init__.pyi) do not name
_DIV = MarkdownConverter.convert_div  # type: ignore[attr-defined]


class _Converter(MarkdownConverter):
    """markdownify, with tables written by ``table_markdown`` (spans, header rows, captions) and a table in a
    table's cell as one line of it (``flat_table``)."""

    def process_element(self, node, parent_tags=None):  # markdownify's own, which it calls once a level
        on_time()
        if isinstance(node, NavigableString):
            return self.process_text(node, parent_tags=parent_tags)
        if node.name == "table" and is_layout(node):
            return "".join(self.process_tag(cell, parent_tags) for cell in layout_cells(node))
        if node.name == "table" and "table" in (parent_tags or ()):
            return f" {flat_table(node, self._cell, parent_tags)} "  # a table in a cell: one line of it
        if node.name == "table":
            return f"\n\n{table_markdown(node, self._cell, parent_tags or set())}\n\n"
        return self.process_tag(node, parent_tags=parent_tags)

    def _cell(self, cell, parent_tags) -> str:
        return super().process_tag(cell, {*parent_tags, "table", "tr", "_inline"})  # type: ignore[misc]

    def convert_td(self, el, text, parent_tags):
        return text.strip()

    def convert_a(self, el, text, parent_tags):
        """A link without a target (an in-page one, whose anchor Markdown does not keep, has lost
        its target in ``html_markdown``) is its text, the spaces round it kept."""
        return super().convert_a(el, text, parent_tags) if el.get("href") else text

    def convert_pre(self, el, text, parent_tags):
        """A code block less the indent all its lines share (the page's own, as it nests the block in
        its source); in a table's cell, where a block would break the row, code in one line."""
        if "_inline" in parent_tags:
            return super().convert_code(el, " ".join(text.split()), parent_tags)
        return super().convert_pre(el, textwrap.dedent(text), parent_tags)

    convert_th = convert_caption = convert_td

    def convert_li(self, el, text, parent_tags):
        item = super().convert_li(el, text, parent_tags)
        if el.find(["ul", "ol"], recursive=False) and not any(
            (child.strip() if isinstance(child, NavigableString) else child.name not in ("ul", "ol"))
            for child in el.children
        ):  # an item that only holds a list (one styled without a bullet): its list one level in, no empty bullet
            return re.sub(r"^\S+ ", lambda bullet: " " * len(bullet.group()), item)
        return item

    # blocks markdownify would run into their neighbours' text
    convert_aside = convert_footer = convert_header = convert_main = convert_nav = _DIV
    convert_address = convert_details = convert_summary = convert_figure = _DIV

    convert_sup = _raised(str.maketrans("0123456789+-=()", "⁰¹²³⁴⁵⁶⁷⁸⁹⁺⁻⁼⁽⁾"))
    convert_sub = _raised(str.maketrans("0123456789+-=()", "₀₁₂₃₄₅₆₇₈₉₊₋₌₍₎"))

    convert_b = convert_strong = _once({"b", "strong"}, MarkdownConverter.convert_b)  # type: ignore[attr-defined]
    convert_em = convert_i = convert_var = _once(
        {"em", "i", "var"},
        MarkdownConverter.convert_em,  # type: ignore[attr-defined]
    )  # var: italic
    convert_del = convert_s = _once({"del", "s"}, MarkdownConverter.convert_del)  # type: ignore[attr-defined]


def _flattened(html: str) -> str:
    """``html`` with no element in another but its paragraphs in its body: its text, the breaks
    between its blocks and paragraphs kept (in one pass over the page)."""

    def tag(match: re.Match) -> str:
        name = (match.group(2) or "").lower()
        if not name:  # a comment
            return ""
        return match.group() if name in FLAT_KEPT else "" if name in INLINE else "<br>"

    return TAG.sub(tag, RAW_TEXT.sub("", html))


def _tree(html: str, too_deep: list[bool], notices: list[Notice], name: str):
    """The page parsed (lxml raises ParserError or ValueError on what is no page), cut after
    ``MAX_ELEMENTS`` elements (``_cut``), text runs of any length and nesting up to 2,048 levels read
    (``huge_tree``); a page nested deeper is parsed flattened (``_flattened``; then cut, if it must
    be, and said so in ``notices``), and ``too_deep`` is told so."""
    html = re.sub(r"^\s*<\?xml[^>]*\?>", "", html)  # XHTML's declaration: lxml refuses it in a decoded string
    # A DOCTYPE with an internal subset (<!DOCTYPE html [ <!ENTITY …> ]>): lxml's HTML parser ends it
    # at its first ">", and the rest ("]>") became text. Its entities are never expanded.
    html = re.sub(r"\A\s*<!DOCTYPE[^\[>]*\[.*?\]\s*>", "", html, count=1, flags=re.I | re.S)
    parser = lxml.html.HTMLParser(huge_tree=True)  # a parser of its own: lxml's are not shared between threads
    kept, cut = _cut(html, name)
    tree = lxml.html.document_fromstring(kept, parser=parser)
    if any("depth" in error.message for error in parser.error_log):  # nested past 2,048 levels: lxml stopped there
        too_deep.append(True)
        kept, cut = _cut(_flattened(html), name)
        tree = lxml.html.document_fromstring(kept, parser=lxml.html.HTMLParser(huge_tree=True))
    notices += [Notice(Code.CUT, cut)] if cut else []
    return tree


def _body(html: str, main_content: bool, too_deep: list[bool], notices: list[Notice], name: str):
    """The page's body without scripts and styles; with ``main_content``, without its chrome too (or
    whole, when it is all chrome). A page nested deeper than the chrome is looked for (a call a
    level: a thousand levels) is read flattened."""
    said = len(notices)
    tree = _tree(html, too_deep, notices, name)
    for element in tree.xpath(NOT_CONTENT):
        element.drop_tree()
    body = tree.find("body") if tree.find("body") is not None else tree
    try:
        if main_content and not drop_chrome(body):
            return _body(html, False, too_deep, [], name)  # cut as before, and said so
    except RecursionError:
        del notices[said:]  # the flattened page's own are said instead
        too_deep.append(True)
        return _body(_flattened(html), main_content, too_deep, notices, name)
    return body


def _cut(html: str, name: str) -> tuple[str, str | None]:
    """``html`` up to its element past the first ``MAX_ELEMENTS`` (counted by their start tags, before
    the page is parsed, so that its tree stays small), or to the start of the table row that holds
    it, and the warning that says how much was left out (None when nothing was)."""
    tags = STARTS.finditer(html)
    past = next(itertools.islice(tags, MAX_ELEMENTS, None), None)
    if past is None:
        return html, None
    total = MAX_ELEMENTS + 1 + sum(1 for _ in tags)
    rows = list(ROW.finditer(html, max(past.start() - ROW_SEARCH, 0), past.start() + len("<tr>")))
    open_row = rows and not ROW_END.search(html, rows[-1].start(), past.start())
    end = rows[-1].start() if open_row else past.start()
    return html[:end], (
        f"{name} has {total:,} elements, more than ReadLens converts ({MAX_ELEMENTS:,}): it is read up to its "
        f"{MAX_ELEMENTS:,}th, and the {len(html) - end:,} characters of the page after that are left out. "
        "Save the part you need as a page of its own to read it."
    )


def page_title(html: str) -> str | None:
    """The page's ``<title>``, whitespace collapsed, or None."""
    end = re.search(r"</title\s*>", html, re.I)  # the title alone is parsed, not the whole page again
    try:
        title = _tree(html[: end.end()] if end else html, [], [], "").findtext(".//title")
    except (ParserError, ValueError):
        return None
    return " ".join((title or "").split()) or None


def _one_space(markdown: str) -> str:
    """Spaces between words once, as a browser shows them, outside code blocks: a text's own space
    and the one round an element next to it (``to: <a> This page</a>``) are not two."""
    lines, fence = markdown.split("\n"), False
    for n, line in enumerate(lines):
        if line.lstrip().startswith("```"):
            fence = not fence
        elif not fence:
            lines[n] = SPACES.sub(" ", line)
    return "\n".join(lines)


def _written(body) -> str:
    """``body`` as HTML for markdownify, its void elements self-closed (``VOID``)."""
    return VOID.sub(r"<\1\2/>", lxml.html.tostring(body, encoding="unicode"))


def html_markdown(html: str, main_content: bool = False, notices: list[Notice] | None = None, name: str = "") -> str:
    """Markdown of ``html``: with ``main_content``, a web page less its chrome; otherwise everything
    but scripts and styles. The ``<title>``, which the page does not show, is not in it (``page_title``).
    What is flattened or cut is said in ``notices``, naming the page ``name``."""
    notices = [] if notices is None else notices
    name, too_deep = name or "The page", list[bool]()
    try:
        body = _body(html, main_content, too_deep, notices, name)
    except (ParserError, ValueError):
        return ""
    for item in body.xpath(".//li[not(*) and not(normalize-space())]"):
        item.drop_tree()  # an empty item shows nothing, and lxml writes it without its end tag: the next nests in it
    for link in list(body.iter("a")):
        link.attrib.pop("title", None)  # a link's tooltip repeats its text at the cost of tokens
        if link.get("href", "").startswith("#"):
            link.attrib.pop("href")  # a place on the page: its anchor is not in the Markdown, its text is
            if not any(map(str.isalnum, link.text_content())) and not link.xpath(".//img"):
                link.drop_tree()  # nor a word: a "^" back to a note's mark, a "¶" beside a heading; a jump
    for image in body.iter("img"):
        if image.get("src", "").startswith("data:"):
            image.set("src", "")  # inline image data is pixels, not text
    converter = _Converter(
        heading_style="ATX", bullets="-", wrap=True, wrap_width=None
    )  # wrap: source line breaks are spaces
    written = _written(body)
    try:
        markdown = converter.convert(written)
    except RecursionError:  # markdownify takes a few calls a level: a page nested hundreds deep is read flattened
        too_deep.append(True)
        markdown = converter.convert(_written(_body(_flattened(written), False, [], [], name)))
    if too_deep:
        notices.append(
            Notice(
                Code.SIMPLIFIED,
                f"{name} nests its elements deeper than ReadLens follows (hundreds of levels): it is read as "
                "its text, in its paragraphs, without its headings, lists and tables.",
            )
        )
    markdown = re.sub(r"\n{3,}", "\n\n", re.sub(r"[ \t]+\n", "\n", markdown)).strip()  # <br> leaves two trailing spaces
    markdown = _one_space(markdown)
    markdown = markdown.translate(BREAK_HINTS)  # Markdown has no line to break: "water‑screw" is "water-screw"
    return markdown


def html_blocks(
    html: str, main_content: bool = False, notices: list[Notice] | None = None, name: str = ""
) -> list[Block]:
    """The blocks of ``html``'s Markdown (``html_markdown``, as markdownify writes it): headings, paragraphs,
    list items, tables, code."""
    return markdown_blocks(html_markdown(html, main_content, notices, name))
