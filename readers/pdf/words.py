"""A PDF page's words, with word spaces found against each line's own letter spacing.

Many PDFs draw no space glyphs: each word is placed on its own, or moved along by a kerning
offset, so a word space is only a wider gap between two letters. How wide depends on the type:
tight letter spacing (a negative character spacing, common in dense tables) draws letters that
overlap and words a fraction of a point apart. A fixed tolerance (pdfplumber's 3 pt, or a fixed
share of the font size) glues such words ("CITIBANK-TRAVELCBACARD"). Here each gap is measured in
ems of its character's size against the line's usual gap between letters (the median gap, when it
is tighter than none): a gap ``WORD_EMS`` wider than that parts two words. Each word carries its
line's baseline, where a table's rows are told apart (``readers.pdf.cells``): boxes overlap when
rows are set tight, and sit higher or lower with each font's descent.
"""

from __future__ import annotations

from statistics import median

from pdfplumber.utils import extract_words
from pdfplumber.utils.text import LIGATURES

WORD_EMS = 0.1  # letters sit within a few hundredths of an em of their usual spacing; the narrowest word space is about 0.2 em
LINE_EMS = 0.3  # of the size: tops this close are one line (pdfplumber's 3 pt at 10 pt), and so are baselines in a table's row


def baseline(char: dict) -> float:
    """The character's baseline, from the page's top: its box's bottom less the font's descent."""
    return char["bottom"] - (char["matrix"][5] - char["y0"])


def text_lines(chars: list[dict]) -> list[list[dict]]:
    """Upright ``chars`` grouped into lines by their tops, top to bottom, each left to right. Tops,
    as pdfplumber groups them: a superscript's top is level with its line's, its baseline is not."""
    lines: list[list[dict]] = []
    last = None
    for char in sorted(chars, key=lambda char: char["top"]):
        if lines and char["top"] - last <= LINE_EMS * char["size"]:
            lines[-1].append(char)
        else:
            lines.append([char])
        last = char["top"]
    return [sorted(line, key=lambda char: char["x0"]) for line in lines]


def _gap(left: dict, right: dict) -> float:
    return (right["x0"] - left["x1"]) / max(left["size"], 1.0)


def _letter_gap(line: list[dict]) -> float:
    """The line's usual gap between two letters, in ems; never wider than none, so a line of
    one-letter words still parts them."""
    gaps = [_gap(left, right) for left, right in zip(line, line[1:]) if left["text"].strip() and right["text"].strip()]
    return min(0.0, median(gaps)) if gaps else 0.0


def _word(chars: list[dict], base: float) -> dict:
    return {"text": "".join(LIGATURES.get(char["text"], char["text"]) for char in chars), "chars": chars, "base": base,
            "x0": min(char["x0"] for char in chars), "x1": max(char["x1"] for char in chars),
            "top": min(char["top"] for char in chars), "bottom": max(char["bottom"] for char in chars)}


def line_words(line: list[dict]) -> list[dict]:
    """The words of one line of characters (``text_lines``), left to right."""
    cut = _letter_gap(line) + WORD_EMS
    base = median(baseline(char) for char in line)
    words: list[dict] = []
    current: list[dict] = []
    for char in line:
        if not char["text"].strip():
            if current:
                words.append(_word(current, base))
            current = []
        elif current and _gap(current[-1], char) > cut:
            words.append(_word(current, base))
            current = [char]
        else:
            current.append(char)
    if current:
        words.append(_word(current, base))
    return words


def is_level(char: dict) -> bool:
    """Set along the page's width (upright or slanted as an italic), not turned: pdfminer counts
    text turned by up to 45 degrees (a chart's axis labels) upright too."""
    return abs(char["matrix"][1]) <= 1e-3 * abs(char["matrix"][0])


def page_words(chars: list[dict]) -> list[dict]:
    """The words of upright ``chars``: each with its box, text, characters and baseline (``base``).
    Text set at a slant has no line to measure letters along: pdfplumber's words, gaps as a share of the size."""
    words = [word for line in text_lines([char for char in chars if is_level(char)]) for word in line_words(line)]
    slanted = extract_words([char for char in chars if not is_level(char)], x_tolerance_ratio=0.15, return_chars=True)
    return words + [{**word, "base": word["bottom"]} for word in slanted]
