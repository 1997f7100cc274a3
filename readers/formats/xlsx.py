"""Spreadsheets (XLSX, XLSM; XLS and ODS arrive as LibreOffice's XLSX copy): a page per sheet,
its tables and charts from the workbook, its image from LibreOffice Calc's PDF
(``readers.office.sheets``)."""

from __future__ import annotations

from ..office.sheets import sheet_pages


def read(job):
    return job.reading(sheet_pages(job))
