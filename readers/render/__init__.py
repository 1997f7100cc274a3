"""Engines that make pages: each turns a document into a PDF, or a PDF into pictures, and says
where a document's blocks fall on those pages.

- ``libreoffice``: one warm headless LibreOffice per process (``uno_bridge`` is its other end,
  run by Debian's Python): Office files to PDF, legacy and ODF files to their OOXML copy;
- ``browser``: one warm headless Chromium per process, network blocked, printing web pages;
- ``pdfium``: page counts, page and figure renders, pages cut into a PDF of their own, PNGs;
- ``placement``: a document's Markdown blocks placed on the pages of its render (Word, web pages).
"""
