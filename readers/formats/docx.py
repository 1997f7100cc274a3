"""Word documents (DOC, RTF and ODT arrive as LibreOffice's DOCX copy): the structure from the
document itself, the pages from LibreOffice's render (``readers.office.word``).

The document's XML is walked in reading order into Markdown blocks: headings (by outline level,
so localized and custom heading styles count), lists numbered as Word numbers them, bold and
italic as emphasis, links as ``[text](url)``, tables in place (a merged cell's words in every cell
it spans; a table in a cell after its table), equations as LaTeX, footnotes (at the end of their
page) and endnotes, comments (author and text, after what they comment on), text boxes, pictures
as ``[Picture: alt text]``, charts and SmartArt text, field results (never field codes); each
page's header and footer, as its section has them, are the page's furniture. Tracked changes read
as accepted, with a warning.

Each block is then placed on the page where LibreOffice's PDF shows it, so page numbers match
what a person sees in Word. Without LibreOffice the same blocks are one page.
"""

from __future__ import annotations

from ..office.word.pages import document_pages
from ..office.word.walker import document_blocks, open_document


def read(job):
    parsed = document_blocks(open_document(job))
    if parsed.unreadable:
        job.warnings.append(
            f"Parts of {job.name} are damaged and were left out: {', '.join(dict.fromkeys(parsed.unreadable))}."
        )
    for cut in parsed.cut:
        job.warnings.append(f"{job.name}: {cut}.")
    if parsed.tracked_changes:
        job.warnings.append(
            f"{job.name} has tracked changes: it is read as if they were "
            "all accepted (insertions kept, deletions dropped, moved text where it was moved to)."
        )
    return job.reading(*document_pages(job, parsed))
