"""The peer of ``bench_pages``: markitdown converting each PDF it is given, page by page.

Run by the Python of its scratch virtualenv (``bench.scratch.MARKITDOWN``; markitdown is never a
dependency): ``python markitdown_pages.py FILE...``; prints JSON: per file, its pages' Markdown, the
seconds ``convert`` took, or the error markitdown raised.

markitdown's PDF converter gives no page marks when it joins pdfplumber's pages (it does so when a
page looks like a form), so its pages are made here by its own per-page steps, and checked to add up
to what ``convert`` returns (``consistent``): pdfminer's text split at its form feeds, or each page's
``_extract_form_content_from_words`` / ``extract_text``, then ``_merge_partial_numbering_lines``.
"""

import io
import json
import re
import sys
import time

import pdfminer.high_level
import pdfplumber
from markitdown import MarkItDown
from markitdown.converters import _pdf_converter as converter


def pages_of(data: bytes) -> tuple[list[str], bool]:
    """The pages as markitdown makes them, and whether it joined them without page marks."""
    pages, forms = [], 0
    try:
        with pdfplumber.open(io.BytesIO(data)) as pdf:
            for page in pdf.pages:
                content = converter._extract_form_content_from_words(page)
                if content is not None:
                    forms += 1
                    pages.append(content if content.strip() else "")
                else:
                    text = page.extract_text()
                    pages.append(text.strip() if text and text.strip() else "")
                page.close()
    except Exception:  # noqa: BLE001 - markitdown falls back to pdfminer alone
        forms = 0
    if forms == 0:
        pages = pdfminer.high_level.extract_text(io.BytesIO(data)).split("\f")
    return [converter._merge_partial_numbering_lines(page) for page in pages], forms > 0


def main(*paths: str) -> None:
    markitdown, answer = MarkItDown(), {}
    for path in paths:
        try:
            start = time.perf_counter()
            whole = markitdown.convert(path).markdown
            seconds = time.perf_counter() - start
            with open(path, "rb") as handle:
                pages, joined = pages_of(handle.read())
        except Exception as error:  # noqa: BLE001 - a file markitdown cannot convert is a result
            answer[path] = {"error": f"{type(error).__name__}: {str(error).splitlines()[0] if str(error) else ''}"}
            continue
        squash = lambda text: re.sub(r"\s+", "", text)
        made = "\n\n".join(page for page in pages if page.strip()) if joined else "\f".join(pages)
        answer[path] = {"pages": pages, "seconds": seconds, "consistent": squash(made) == squash(whole)}
    json.dump(answer, sys.stdout)


if __name__ == "__main__":
    main(*sys.argv[1:])
