"""RSS and Atom feeds (feedparser): one page with the feed's title and description, then each
item's title, date, link and text (HTML as Markdown)."""

from __future__ import annotations

import feedparser

from ..errors import ReaderError
from ..markup.blocks import Block, paragraphs
from ..markup.html import html_blocks
from ..markup.markdown import heading_block
from ..models import Extraction, Page
from ..notices import Notice


def _entry(entry, job, notices: list[Notice]) -> list[Block]:
    title = heading_block(2, entry.get("title") or "(untitled item)")
    lines = []
    date = entry.get("published") or entry.get("updated")
    if date:
        lines.append(f"Date: {date}")
    if entry.get("link"):
        lines.append(f"Link: {entry['link']}")
    if entry.get("author"):
        lines.append(f"Author: {entry['author']}")
    content = entry.get("content") or [{"value": entry.get("summary", "")}]
    return [
        title,
        *paragraphs("\n".join(lines)),
        *html_blocks(content[0].get("value") or "", notices=notices, name=job.name),
    ]


def read(job):
    parsed = feedparser.parse(job.path.read_bytes())  # bytes: feedparser reads them, it never fetches anything
    feed = parsed.feed
    if not feed.get("title") and not any(entry.get("title") or entry.get("summary") for entry in parsed.entries):
        raise ReaderError(
            "CORRUPT_FILE",
            f"{job.name} is not a readable RSS or Atom feed "
            f"({parsed.get('bozo_exception') or 'no title and no items'}).",
        )
    notices: list[Notice] = []
    blocks = [heading_block(1, feed.get("title") or "(untitled feed)")]
    if feed.get("subtitle"):
        blocks += html_blocks(feed["subtitle"], notices=notices, name=job.name)
    blocks += paragraphs(
        "\n".join([*([f"Link: {feed['link']}"] if feed.get("link") else []), f"{len(parsed.entries)} items"])
    )
    for entry in parsed.entries:
        blocks += _entry(entry, job, notices)
    return job.reading(Extraction(1, [Page(number=n, blocks=blocks) for n in job.select(1, notices)], notices=notices))
