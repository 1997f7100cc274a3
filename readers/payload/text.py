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
"""

from __future__ import annotations

from ..kinds import kind_of


def header(reading, page) -> str:
    """``[PAGE 7]``, ``[SLIDE 2]``, ``[IMAGE: name.png]``: what stands over a page's text."""
    if kind_of(reading.kind).picture:
        named = f"{reading.kind.upper()}: {reading.name}"
        return f"[{named}]" if reading.page_count == 1 else f"[{named} - {reading.label} {page.number}]"
    return f"[{reading.label} {page.number}]"


def page_text(reading, page, line_numbers: bool = False) -> str:
    """The page's header and content; ``line_numbers`` numbers a text file's lines (``as_text``)."""
    content = page.text if page.line is not None else page.text.strip()
    if line_numbers and page.line is not None:
        content = "\n".join(f"{number:>6}→{line}" for number, line in enumerate(page.text.split("\n"), page.line))
    return "\n".join(part for part in [header(reading, page), content] if part)


def visual_text(reading, page) -> str | None:
    """The page's description under ``[PAGE 7 - VISUAL CONTENT]`` (with the question asked), or None."""
    if not page.description:
        return None
    query = f' (Query: "{reading.question}")' if reading.question else ""
    return f"[{header(reading, page)[1:-1]} - VISUAL CONTENT{query}]\n{page.description.strip()}"


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


def as_text(reading, line_numbers: bool = False) -> str:
    """``Reading.as_text``: each page's text, then its visual description; a recording's transcript."""
    if reading.transcript is not None:
        transcript = reading.transcript
        return f"[AUDIO: {reading.name}, {transcript.summary}]\n{transcript.text.strip()}".strip()
    parts, pages = [], shown(reading)
    for page, file_header in zip(pages, file_headers(pages)):
        parts += [file_header, page_text(reading, page, line_numbers), visual_text(reading, page)]
    return "\n\n".join(part for part in parts if part)


def files_text(readings) -> str:
    """What a text-only model receives for several files, one after another: each file's ``as_text``
    after its ``[FILE: name]``; a file alone is its own ``as_text``."""
    if len(readings) == 1:
        return readings[0].as_text()
    return "\n\n".join(f"{file_header(reading.name)}\n\n{reading.as_text()}" for reading in readings)
