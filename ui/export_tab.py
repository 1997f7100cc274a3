"""The Export tab: the reading to download as Markdown (what the model receives), JSON (what the API's
``/read_file`` answers) or plain text, all files in one and each file, with a citation after each page's text
or without (``ui.report.write_readings``); and the report with the page images."""

from __future__ import annotations

from pathlib import Path

import gradio as gr

from .report import EXPORTS, write_readings

CITATIONS = "Citations after each page's text and its visual content, e.g. (Source: report.pdf, p. 12)"


def export_tab(entries: gr.State, folder: Path, **private) -> gr.File:
    """The tab's downloads, made again when the files, the format or the citations change; the report's file,
    which the page fills once every file is read, is returned."""
    with gr.Tab("Export", elem_id="export-tab"):
        gr.Markdown(
            "The reading, for all files and for each: **Markdown**, what a text-only model receives (each page's "
            "text and tables, then its visual content); **JSON**, what the API's `/read_file` answers; "
            "**Plain text**, the Markdown without its marks, tables in columns."
        )
        with gr.Group():  # the citations under the format, at every width
            form = gr.Radio(list(EXPORTS), value="Markdown", label="Format", elem_id="export-format")
            citations = gr.Checkbox(value=True, label=CITATIONS, elem_id="export-citations")
        readings = gr.File(
            label="The reading (all files, then each)", file_count="multiple", interactive=False, elem_id="readings"
        )
        gr.Markdown(
            "Or a report to keep: the text, tables, descriptions and page images, with a citation for each page's "
            "text, each table and each figure, as a zip with the images and the chunks a retriever indexes."
        )
        report = gr.File(label="Report (report.md + images)", interactive=False, elem_id="report")
    gr.on(
        [entries.change, form.change, citations.change],
        lambda current, chosen, cited: write_readings(current, folder, EXPORTS[chosen], cited),
        [entries, form, citations],
        readings,
        show_progress="hidden",
        **private,
    )
    form.change(  # the API's answer is as it is: the citations are the text's
        lambda chosen: gr.update(interactive=chosen != "JSON"), form, citations, show_progress="hidden", **private
    )
    return report
