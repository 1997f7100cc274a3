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

from ..notices import Code, Notice
from ..office.word.pages import document_pages
from ..office.word.walker import document_blocks, open_document


def read(job):
    notices = []
    document, job = open_document(job, notices)  # the job of the copy cut if the document nests too deep
    parsed = document_blocks(document)
    if parsed.unreadable:
        damaged = ", ".join(dict.fromkeys(parsed.unreadable))
        notices.append(Notice(Code.DAMAGED, f"Parts of {job.name} are damaged and were left out: {damaged}."))
    notices += [Notice(Code.CUT, f"{job.name}: {cut}.") for cut in parsed.cut]
    if parsed.tracked_changes:
        notices.append(
            Notice(
                Code.TRACKED_CHANGES,
                f"{job.name} has tracked changes: it is read as if they were all accepted (insertions kept, "
                "deletions dropped, moved text where it was moved to).",
            )
        )
    return job.reading(document_pages(job, parsed, notices))
