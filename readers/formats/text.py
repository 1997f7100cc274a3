"""Plain-text files (txt, md, csv, json, source code): the text, with its encoding detected.

A Jupyter notebook is shown as its cells (Markdown as is, code fenced), not as raw JSON.
"""

from __future__ import annotations

import json

from charset_normalizer import from_bytes

from ..errors import ReaderError
from ..models import Page

def decode(data: bytes, name: str) -> str:
    """The text of ``data`` in its detected encoding (UTF-8 and its BOMs first)."""
    for bom, codec in ((b"\xef\xbb\xbf", "utf-8-sig"), (b"\xff\xfe", "utf-16"), (b"\xfe\xff", "utf-16"), (b"", "utf-8")):
        if data.startswith(bom):
            try:
                return data.decode(codec)
            except UnicodeDecodeError:
                break
    match = from_bytes(data).best()
    if match is None:
        raise ReaderError("UNSUPPORTED_FORMAT", f"{name} does not look like text in any known encoding. If it is a document, export it as PDF or DOCX.")
    return str(match)


def notebook_text(text: str) -> str | None:
    """A notebook's cells as Markdown, or None when ``text`` is not a notebook."""
    try:
        notebook = json.loads(text)
    except ValueError:
        return None
    if not isinstance(notebook, dict) or not isinstance(notebook.get("cells"), list) or not all(isinstance(c, dict) for c in notebook["cells"]):
        return None
    kernelspec = notebook.get("metadata", {}).get("kernelspec", {}) if isinstance(notebook.get("metadata"), dict) else {}
    language = kernelspec.get("language", "") if isinstance(kernelspec, dict) else ""
    blocks = []
    for cell in notebook["cells"]:
        source = cell.get("source", "")
        source = "".join(map(str, source)) if isinstance(source, list) else str(source)
        if cell.get("cell_type") == "code":
            blocks.append(f"```{language}\n{source}\n```")
        elif source.strip():
            blocks.append(source)
    return "\n\n".join(blocks)


def read(job):
    text = decode(job.path.read_bytes(), job.name).replace("\r\n", "\n")
    if job.path.suffix.lower() == ".ipynb":
        text = notebook_text(text) or text
    return job.reading(1, [Page(number=n, text=text) for n in job.select(1)])
