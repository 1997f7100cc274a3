"""Names from inside a file (a ZIP member's, an attachment's, a damaged part's), made safe to show and to hint with."""

from __future__ import annotations

import re
from pathlib import Path


def label(name: str) -> str:
    """A member's name as shown: printable characters only, so it cannot fake a ``[PAGE n]`` line."""
    return "".join(character for character in name if character.isprintable()).strip() or "(no name)"


def safe_suffix(name: str) -> str:
    """The member's extension, letters and digits only (a hint some readers use, e.g. ``.csv``)."""
    suffix = re.sub(r"[^A-Za-z0-9]", "", Path(name).suffix)[:10]
    return f".{suffix}" if suffix else ""
