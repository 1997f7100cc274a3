"""The API as issue 42 left it, through the real ``gradio_client`` against ``python app.py``: several
files in one ``/read_file`` call, each named in the payload; each page's blocks with their boxes;
errors in a person's words; and the API page's examples, which send a file."""

from __future__ import annotations

import httpx
from gradio_client import handle_file

from readers.payload.tokens import text_tokens
from testkit import CORPUS, ROOT

REPORT_PDF = ROOT / "assets" / "chart-report.pdf"
WARN_PDF = CORPUS / "pdfplumber" / "ca-warn-report.pdf"


def test_several_files_come_back_each_named_before_its_pages_in_one_payload(client, tmp_path):
    broken = tmp_path / "broken.pdf"
    broken.write_bytes(REPORT_PDF.read_bytes()[:400])
    answer = client.predict(
        files=[handle_file(str(REPORT_PDF)), handle_file(str(broken)), handle_file(str(WARN_PDF))],
        page_end=1,
        api_name="/read_file",
    )
    report, damaged, warn = answer["files"]
    assert (report["name"], warn["name"]) == ("chart-report.pdf", "ca-warn-report.pdf")
    assert [page["number"] for page in report["pages"]] == [1] and report["text"].startswith("[PAGE 1]")
    assert damaged == {
        "name": "broken.pdf",
        "error": {
            "code": "CORRUPT_FILE",
            "message": "broken.pdf is damaged: the PDF's data cannot be read, or the file is incomplete. "
            "Export or download it again.",
        },
    }
    text = answer["text"]  # what a text-only model receives of them all
    assert text == f"[FILE: chart-report.pdf]\n\n{report['text']}\n\n[FILE: ca-warn-report.pdf]\n\n{warn['text']}"
    assert answer["tokens"]["openai"] == {"count": text_tokens(text), "exact": True}  # the names counted
    assert answer["tokens"]["openai"]["count"] > report["tokens"]["openai"]["count"] + warn["tokens"]["openai"]["count"]
    seen = client.predict(
        files=[handle_file(str(REPORT_PDF)), handle_file(str(WARN_PDF))],
        page_end=1,
        multimodal=True,
        api_name="/read_file",
    )
    parts = seen["messages"]
    assert [part["type"] for part in parts] == ["text", "image_url", "text", "image_url"]
    assert parts[0]["text"].startswith("[FILE: chart-report.pdf]\n\n[PAGE 1]")
    assert parts[2]["text"].startswith("[FILE: ca-warn-report.pdf]\n\n[PAGE 1]")
    assert "messages" not in seen["files"][0]  # the images once, in the payload of them all


def test_each_page_s_blocks_come_with_their_text_their_box_and_a_table_s_cells(client):
    reading = client.predict(file=handle_file(str(REPORT_PDF)), api_name="/read_file")
    first = reading["pages"][0]
    content = [block for block in first["blocks"] if block["kind"] != "furniture"]
    assert [block["text"] for block in first["blocks"] if block["kind"] == "furniture"] == ["Page 1 of 4"]
    kinds = [(block["kind"], block["text"][:30]) for block in content]
    assert kinds == [
        ("heading", "# Quarterly Sales Report 2024"),
        ("paragraph", "Sales grew in every quarter of"),
        ("chart", "Chart (bar chart)\n\n|  | North "),
    ]
    title, paragraph, chart = (block["box"] for block in content)
    assert all(0 <= value <= 1 for box in (title, paragraph, chart) for value in box)
    assert title[3] <= paragraph[1] and paragraph[3] <= chart[1]  # top to bottom, as on the page
    drawn = first["figures"][0]["box"]  # a chart rebuilt from its drawing stands where it does, with its labels
    assert chart[0] <= drawn[0] and chart[1] <= drawn[1] and chart[2] >= drawn[2] and chart[3] >= drawn[3]
    assert first["text"] == "\n\n".join(block["text"] for block in content)  # the page's text is its blocks
    table = next(block for block in reading["pages"][2]["blocks"] if block["kind"] == "table")
    assert table["text"].startswith("| Region |") and table["text"] in reading["pages"][2]["text"]
    assert [cell["text"] for cell in table["rows"][0]] == ["Region", "Q1", "Q2", "Q3", "Q4"]


def test_bytes_of_no_type_named_pdf_say_so_in_a_person_s_words(client, tmp_path):
    noise = tmp_path / "scan.pdf"
    noise.write_bytes(bytes(range(256)) * 20)
    answer = client.predict(files=[handle_file(str(noise))], api_name="/read_file")
    message = answer["files"][0]["error"]["message"]
    assert message.startswith(  # libmagic takes these bytes for a TGA picture
        "scan.pdf is not a PDF inside: its content is no format ReadLens reads (it looks like image/x-tga). It may be "
        "damaged, or another kind of file renamed."
    )
    random = tmp_path / "random.pdf"
    random.write_bytes(bytes.fromhex("8f3a1c77e2") * 900)
    answer = client.predict(files=[handle_file(str(random))], api_name="/read_file")
    assert answer["files"][0]["error"]["message"].startswith(
        "random.pdf is not a PDF inside: its content is no format ReadLens reads. It may be damaged, or another kind "
        "of file renamed."
    )


def test_the_api_page_examples_send_a_file_and_clients_keep_the_defaults(app):
    info = httpx.get(f"{app.url}gradio_api/info", timeout=30).json()["named_endpoints"]
    for endpoint in ("/read_file", "/render_page", "/describe", "/transcribe", "/outline", "/find"):
        python = info[endpoint]["code_snippets"]["python"]
        assert "file=handle_file('https://" in python and "file=None" not in python, endpoint
        file = info[endpoint]["parameters"][0]
        assert (file["parameter_name"], file["parameter_has_default"], file["parameter_default"]) == (
            "file",
            True,
            None,
        )
