"""A web page's chrome: what frames the content rather than being it, told from the page's own structure.

Chrome is what the page marks as such: navigation (``<nav>``, ``role=navigation``, but for a block in
the content that holds a table of data, such as Wikipedia's authority-control box), a search box
(``role=search``), sidebars (``<aside>`` or ``role=complementary`` outside an ``<article>``), the
site's banner and footer (a ``<header>`` or ``<footer>`` that belongs to the page, not to an article
or a section, as ARIA's banner and contentinfo do; ``role=banner``, ``role=contentinfo`` outside the
content), a skip link (a link, not in a list, to the content or into it but for a heading), cookie
and consent banners (a dialog, or, outside ``<main>`` and ``<article>``, an element whose id or
class names a cookie or consent banner, notice, bar or popup), and a block that is nearly all links
(a menu or a link farm) outside ``<main>`` and ``<article>`` or in their header or footer (a
language menu beside the title). Everything else is content and is kept, in document order. A page
whose every part is chrome by these rules (a page that is one menu) is read whole, so its reading is
never empty.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

CHROME_TAGS = {"nav"}
CHROME_ROLES = {"navigation", "search", "dialog", "alertdialog"}
PAGE_EDGE_ROLES = {"banner", "contentinfo"}  # the page's; inside its content (Bing's results) the role is misused
SIDEBAR_TAGS = {"aside"}
SIDEBAR_ROLES = {"complementary"}
PAGE_EDGE_TAGS = {"header", "footer"}  # the page's own banner and footer; an article's or a section's are content
CONTENT_ROOTS = {"main", "article"}  # inside these, only what is marked as chrome is chrome
SECTIONING = {"article", "aside", "main", "nav", "section"}
HEADINGS = {"h1", "h2", "h3", "h4", "h5", "h6"}
COOKIE = re.compile(  # the names cookie and consent notices go by (a recipe's "cookie-list" is none)
    r"(?:cookie|consent|gdpr)[-_]?(?:banner|bar|consent|notice|popup|dialog|message|wall|modal|sdk)|cookiebot|onetrust",
    re.I,
)
DATA_ROWS = (
    "(.|./thead|./tbody|./tfoot)/tr[td[normalize-space()] or th[normalize-space()]]"  # a table's own rows of text
)
LINK_BLOCKS = {"div", "ul", "ol", "section", "table", "p"}
MIN_LINKS = 10  # a block needs this many links before its link density can call it a menu
LINK_DENSITY = 0.8  # share of a block's letters that are link text for the block to be a menu


def _letters(text: str | None) -> int:
    return len("".join(text.split())) if text else 0


def _measure(root) -> dict:
    """Each element's letters, letters in links, links and whether it holds an ``<h1>``, in one
    pass from the leaves up (a block's numbers are its children's, summed)."""
    measures: dict = {}
    for element in reversed(list(root.iter())):  # reversed document order: an element after all it holds
        if not isinstance(element.tag, str):
            continue  # a comment: its text is never shown (its tail is counted by its parent)
        letters, in_links, links, title = _letters(element.text), 0, 0, element.tag == "h1"
        for child in element:
            letters += _letters(child.tail)
            if isinstance(child.tag, str):
                child_letters, child_in_links, child_links, child_title = measures[child]
                letters, in_links = letters + child_letters, in_links + child_in_links
                links, title = links + child_links, title or child_title
        if element.tag == "a" and element.get("href") is not None:
            in_links, links = letters, links + 1
        measures[element] = (letters, in_links, links, title)
    return measures


def _link_dense(measure) -> bool:
    """A menu or a link farm: many links and little else; never a block that holds the page's title."""
    letters, in_links, links, title = measure
    return links >= MIN_LINKS and not title and letters > 0 and in_links >= LINK_DENSITY * letters


def _holds_data(element) -> bool:
    """Whether ``element`` holds a table of data: two rows or more with a cell of text (Wikipedia's
    authority-control box, which the page marks as navigation)."""
    return any(len(table.xpath(DATA_ROWS)) > 1 for table in element.iter("table"))


def _is_content_root(element) -> bool:
    return element.tag in CONTENT_ROOTS or (element.get("role") or "").strip().lower() == "main"


def _content_ids(body) -> set[str]:
    """The ids a skip link aims at: the content (a main or an article), what holds it, and any
    block in it but a heading (a table of contents aims at the headings)."""
    roots = [element for element in body.iter() if isinstance(element.tag, str) and _is_content_root(element)]
    around = [ancestor for root in roots for ancestor in root.iterancestors()]
    within = [element for root in roots for element in root.iter() if isinstance(element.tag, str)]
    return {element.get("id") for element in [*around, *within] if element.get("id") and element.tag not in HEADINGS}


@dataclass
class _Page:
    measures: dict  # what _measure gives
    content_ids: set[str]  # what _content_ids gives


def _chrome(element, where: frozenset[str], page: _Page) -> bool:
    """Whether ``element`` is chrome; ``where`` says what it stands in: ``content`` (a main or an
    article), ``article`` (whose own aside is a box of its content, not a sidebar), ``section`` (any
    sectioning element, whose header or footer is its own), ``edge`` (such a header or footer,
    where a block of links is a navigation aid), ``list`` (a list item)."""
    tag = element.tag if isinstance(element.tag, str) else ""
    role = (element.get("role") or "").strip().lower()
    if tag in CHROME_TAGS or role in CHROME_ROLES:
        return not (role == "navigation" and "content" in where and _holds_data(element))
    if (tag in SIDEBAR_TAGS or role in SIDEBAR_ROLES) and "article" not in where:
        return True
    outside = "content" not in where
    if (tag in PAGE_EDGE_TAGS and "section" not in where) or (role in PAGE_EDGE_ROLES and outside):
        return True
    href = element.get("href") or ""
    if tag == "a" and outside and "list" not in where and href.startswith("#") and href[1:] in page.content_ids:
        return True  # a skip link: "Jump to content"
    if outside and COOKIE.search(f"{element.get('id') or ''} {element.get('class') or ''}"):
        return True
    return tag in LINK_BLOCKS and (outside or "edge" in where) and _link_dense(page.measures[element])


def _chrome_elements(element, page: _Page, where: frozenset = frozenset()) -> list:
    found = []
    for child in element:
        if not isinstance(child.tag, str):
            continue
        if _chrome(child, where, page):
            found.append(child)
            continue
        inside = {
            "content": _is_content_root(child),
            "section": child.tag in SECTIONING,
            "edge": child.tag in PAGE_EDGE_TAGS,
            "article": child.tag == "article",
            "list": child.tag == "li",
        }
        found += _chrome_elements(child, page, where | {name for name, yes in inside.items() if yes})
    return found


def drop_chrome(body) -> bool:
    """Take the chrome out of ``body`` (an lxml element); False when nothing is left that shows
    (no text, no picture, no table): the page is its chrome, and the caller reads it whole."""
    for element in _chrome_elements(body, _Page(_measure(body), _content_ids(body))):
        element.drop_tree()
    return bool(_measure(body)[body][0]) or bool(body.xpath(".//img|.//table"))
