"""HTML as Markdown: the one HTML-to-Markdown step (web pages, feeds, EPUB chapters, e-mail bodies).

readability-lxml finds a page's main content (leaving out navigation, sidebars, scripts, styles
and cookie banners) and markdownify writes it as Markdown: headings, lists, tables, links with
their targets.
"""

from __future__ import annotations

import re

import lxml.html
from lxml.etree import ParserError
from markdownify import markdownify
from readability import Document
from readability.readability import Unparseable

from .text import decode

MIN_TEXT_LENGTH = 5  # readability drops blocks shorter than this: its default (25) drops small data tables
NOT_CONTENT = "//script|//style|//noscript|//template|//head"
CHARSET_HEAD = 4096  # bytes searched for a declared charset: HTML asks for it within the first 1024


def decode_html(data: bytes, name: str, warnings: list[str], default: str | None = None) -> str:
    """The page's text in the charset it declares (its XML declaration, which rules an XHTML file
    such as an EPUB chapter, else its <meta>), else in ``default`` (the charset its container gives,
    an e-mail's codepage), else as detected."""
    head = data[:CHARSET_HEAD]
    declared = re.match(rb"""\s*<\?xml[^>]*?encoding\s*=\s*["']([\w.:-]+)""", head) or re.search(
        rb"""<meta[^>]+charset\s*=\s*["']?([\w.:-]+)""", head, re.I
    )
    charset = declared.group(1).decode("ascii") if declared else default
    if declared and charset.lower().startswith(
        ("utf-16", "utf-32")
    ):  # found as ASCII bytes, so the file is not in it: HTML's rule reads UTF-8
        charset = "utf-8"
    return decode(data, name, warnings, charset)


def html_markdown(html: str, main_content: bool = False) -> str:
    """Markdown of ``html``: with ``main_content``, only what readability finds is the page's
    content, under the page's title; otherwise everything but scripts and styles."""
    html = re.sub(r"^\s*<\?xml[^>]*\?>", "", html)  # XHTML's declaration: lxml refuses it in a decoded string
    # A DOCTYPE with an internal subset (<!DOCTYPE html [ <!ENTITY …> ]>): lxml's HTML parser ends it
    # at its first ">", and the rest ("]>") became text. Its entities are never expanded.
    html = re.sub(r"\A\s*<!DOCTYPE[^\[>]*\[.*?\]\s*>", "", html, count=1, flags=re.I | re.S)
    title = ""
    if main_content:
        try:
            document = Document(html, min_text_length=MIN_TEXT_LENGTH)
            html, title = document.summary(html_partial=True), document.short_title()
        except (Unparseable, ParserError, ValueError):  # nothing readability can score: keep the whole page
            pass
    try:
        tree = lxml.html.fromstring(html)
    except (ParserError, ValueError):
        return ""
    for element in tree.xpath(NOT_CONTENT):
        element.drop_tree()
    for link in tree.iter("a"):
        link.attrib.pop("title", None)  # a link's tooltip repeats its text at the cost of tokens
    for image in tree.iter("img"):
        if image.get("src", "").startswith("data:"):
            image.set("src", "")  # inline image data is pixels, not text
    markdown = markdownify(
        lxml.html.tostring(tree, encoding="unicode"), heading_style="ATX", bullets="-", table_infer_header=True
    )
    markdown = re.sub(r"\n{3,}", "\n\n", re.sub(r"[ \t]+\n", "\n", markdown)).strip()  # <br> leaves two trailing spaces
    if title and not re.search(r"^# ", markdown, re.M):
        markdown = f"# {title}\n\n{markdown}"
    return markdown
