"""What a text-only model receives (``Reading.as_text``), and the text of each page in the other
forms (``readers.payload.messages``):

    [FILE: papers/report.pdf]        before the first page of a file inside a container
    [PAGE 7]                         [SLIDE 2], [SHEET 1], [IMAGE: name.png], [IMAGE: name.gif - FRAME 3]
    <the page's text, tables as Markdown>

    [PAGE 7 - VISUAL CONTENT]        with (Query: "...") after a question
    <its description>

A recording is ``[AUDIO: name, 12.3 s, en]`` over its transcript. Several files sent together
(``files_text``) are each introduced by ``[FILE: name]``, as a container's files are. A page with
nothing a model receives (``Page.empty``: no content, figure, description or error, such as a printed
web page of only navigation, or a blank page) is no page of the payload (``shown``).

The export's forms of it (the app's Export, ``readlens --format plain --citations``): ``plain``, the
pages' Markdown as plain text (``readers.payload.plain``; a text file's lines stay as they are), and
``citations``, a citation after each page's text, its visual content and a recording's transcript:
``*(Source: report.pdf, p. 7)*``, without the asterisks in plain text.
"""

from __future__ import annotations

from ..kinds import kind_of
from .citations import page_source, source
from .plain import unmarked


def header(reading, page) -> str:
    """``[PAGE 7]``, ``[SLIDE 2]``, ``[IMAGE: name.png]``: what stands over a page's text."""
    if kind_of(reading.kind).picture:
        named = f"{reading.kind.upper()}: {reading.name}"
        return f"[{named}]" if reading.page_count == 1 else f"[{named} - {reading.label} {page.number}]"
    return f"[{reading.label} {page.number}]"


def page_text(reading, page, line_numbers: bool = False, plain: bool = False) -> str:
    """The page's header and content; ``line_numbers`` numbers a text file's lines (``as_text``), ``plain``
    drops the Markdown marks of a page that is not a text file's lines."""
    content = page.text if page.line is not None else page.text.strip()
    if line_numbers and page.line is not None:
        content = "\n".join(f"{number:>6}→{line}" for number, line in enumerate(page.text.split("\n"), page.line))
    elif plain and page.line is None:
        content = unmarked(content)
    return "\n".join(part for part in [header(reading, page), content] if part)


def visual_text(reading, page, plain: bool = False) -> str | None:
    """The page's description under ``[PAGE 7 - VISUAL CONTENT]`` (with the question asked), or None."""
    if not page.description:
        return None
    query = f' (Query: "{reading.question}")' if reading.question else ""
    description = page.description.strip()
    return f"[{header(reading, page)[1:-1]} - VISUAL CONTENT{query}]\n{unmarked(description) if plain else description}"


def cited(where: str, plain: bool) -> str:
    """``*(Source: report.pdf, p. 7)*``, the export's citation; ``(Source: …)`` in plain text."""
    return f"(Source: {where})" if plain else f"*(Source: {where})*"


def file_header(name: str) -> str:
    """``[FILE: name]``: what introduces a file's pages where pages of several files meet."""
    return f"[FILE: {name}]"


def shown(reading) -> list:
    """The reading's pages that are pages of the payload: those not ``empty``."""
    return [page for page in reading.pages if not page.empty]


def file_headers(pages) -> list[str | None]:
    """``[FILE: name]`` before the first of ``pages`` of each section of a container, else None."""
    headers, section = [], None
    for page in pages:
        headers.append(file_header(page.section) if page.section and page.section != section else None)
        section = page.section
    return headers


def as_text(reading, line_numbers: bool = False, plain: bool = False, citations: bool = False) -> str:
    """``Reading.as_text``: each page's text, then its visual description; a recording's transcript."""
    if reading.transcript is not None:
        transcript = reading.transcript
        text = f"[AUDIO: {reading.name}, {transcript.summary}]\n{transcript.text.strip()}".strip()
        if citations:  # the whole recording, as its header
            span = (0.0, transcript.duration)
            text += "\n\n" + cited(source(reading.name, reading.kind, reading.page_count, span=span), plain)
        return text
    parts, pages = [], shown(reading)
    for page, file_header in zip(pages, file_headers(pages)):
        text, visual = page_text(reading, page, line_numbers, plain), visual_text(reading, page, plain)
        where = cited(page_source(reading, page), plain) if citations else None
        parts += [file_header, text, where if page.text.strip() else None, visual, where if visual else None]
    return "\n\n".join(part for part in parts if part)


def files_text(readings, plain: bool = False, citations: bool = False) -> str:
    """What a text-only model receives for several files, one after another: each file's ``as_text``
    after its ``[FILE: name]``; a file alone is its own ``as_text``."""
    texts = [reading.as_text(plain=plain, citations=citations) for reading in readings]
    if len(readings) == 1:
        return texts[0]
    return "\n\n".join(f"{file_header(reading.name)}\n\n{text}" for reading, text in zip(readings, texts))
