"""The page engine PDFs, Office files, web pages and sheets share: a PDF's pages read into text,
tables, figures and renders.

- ``pages``: the selected pages extracted (pdfplumber) and rendered (pdfium), cached by content hash;
- ``pool``: the worker processes they are read in, each page's time and each worker's memory bounded;
- ``render``: pdfium's page counts, figure renders, page cuts and PNG encoding;
- ``figures``: pictures, drawings and scans found on a page;
- ``layout``: a page's words as Markdown in reading order.
"""
