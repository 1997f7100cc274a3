"""RSS and Atom feeds (feedparser): one page with the feed's title and description, then each
item's title, date, link and text (HTML as Markdown)."""

from __future__ import annotations

import feedparser

from ..errors import ReaderError
from ..markup.html import html_markdown
from ..models import Extraction, Page
from ..notices import Notice


def _entry(entry, job, notices: list[Notice]) -> str:
    lines = [f"## {entry.get('title') or '(untitled item)'}"]
    date = entry.get("published") or entry.get("updated")
    if date:
        lines.append(f"Date: {date}")
    if entry.get("link"):
        lines.append(f"Link: {entry['link']}")
    if entry.get("author"):
        lines.append(f"Author: {entry['author']}")
    content = entry.get("content") or [{"value": entry.get("summary", "")}]
    text = html_markdown(content[0].get("value") or "", notices=notices, name=job.name)
    return "\n".join(lines) + (f"\n\n{text}" if text else "")


def read(job):
    parsed = feedparser.parse(job.path.read_bytes())  # bytes: feedparser reads them, it never fetches anything
    feed = parsed.feed
    if not feed.get("title") and not any(entry.get("title") or entry.get("summary") for entry in parsed.entries):
        raise ReaderError(
            "CORRUPT_FILE",
            f"{job.name} is not a readable RSS or Atom feed "
            f"({parsed.get('bozo_exception') or 'no title and no items'}).",
        )
    head, notices = [f"# {feed.get('title') or '(untitled feed)'}"], []
    if feed.get("subtitle"):
        head.append(html_markdown(feed["subtitle"], notices=notices, name=job.name))
    if feed.get("link"):
        head.append(f"Link: {feed['link']}")
    head.append(f"{len(parsed.entries)} items")
    text = "\n\n".join(["\n".join(head), *(_entry(entry, job, notices) for entry in parsed.entries)])
    return job.reading(Extraction(1, [Page(number=n, text=text) for n in job.select(1, notices)], notices=notices))
