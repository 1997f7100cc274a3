"""Two readings of one page compared word for word: ReadLens's words against a witness's (poppler's
``pdftotext``), every difference put in one class.

Both sides become word sequences: ReadLens's page text with its Markdown taken off (heading marks,
list dashes, table pipes and rules, link targets) and its furniture after it; the witness's text as it
prints it. Bullets, dashes and dot leaders standing alone are no word on either side. The sequences are aligned
with ``difflib`` (the runs both read in the same order), and what is left is classed, in this order:

- ``split``: one witness word that ReadLens reads as two or more (``0 3 / 2 5`` for ``03/25``);
- ``merged``: two or more witness words that ReadLens reads as one;
- ``hyphen``: a word the witness leaves broken at a line's end (``co-`` ``operation``) that ReadLens
  reads whole;
- ``moved``: a word both read, in another place (a run out of order); furniture, which ReadLens sets
  apart on purpose, is not counted;
- ``cid``: a glyph's name where its character should be (``(cid:176)``);
- ``changed``: a word read in its place with other characters (an accent, a quote, a letter);
- ``lost``: a witness word ReadLens does not have;
- ``added``: a ReadLens word the witness does not have.

Of the words ``lost`` in that alignment, those the page's output does not hold are ReadLens's loss
(``Comparison.missing``, the count ``make bench words`` holds at 0): a word whose letters and digits
stand fewer times in ReadLens's page than in the witness's, each page read as one run of letters and
digits (so a word split, glued to another, "980s.[3]", or read in another order is held), and not
the witness's own: no word at all (no letter or digit: a form's arrows the witness prints as "©"),
a font's raw codes (control characters), or a word it spells backwards (text set mirrored).
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass, field
from difflib import SequenceMatcher
from itertools import product

CLASSES = ("split", "merged", "hyphen", "moved", "cid", "changed", "lost", "added")
CID = re.compile(r"\(cid:\d+\)")
LAM_ALEF = re.compile("([\u0622\u0623\u0625\u0627])\u0644")  # an alef drawn before its lam: the ligature as drawn
# bullets, dashes, rules, dot leaders and Markdown marks standing alone
NO_WORD = re.compile(r"^[•◦▪▫‣●○■□►▶–—*·.…\-_=|#>]+$")
LINK = re.compile(r"\[([^\]]*)\]\([^)\s]*\)")
TABLE_RULE = re.compile(r"^\|(?:-+\|)+$")
CELL = re.compile(r"(?<!\\)\|")  # a table's cells are parted by pipes, a pipe in a cell is escaped
HEADING = re.compile(r"^#{1,6} ")
LIST_ITEM = re.compile(r"^\s*- ")
CHANGED_RATIO = 0.5  # characters two words in the same place share, at least, to be one word read otherwise
EXAMPLES = 3  # of each class, kept per page


@dataclass
class Token:
    text: str
    line_end: bool = False  # the last word of its line or table cell: a split or a merger never crosses one
    furniture: bool = False


@dataclass
class Comparison:
    """One page's words compared: counts per class, the words on each side and a few examples."""

    witness: int = 0
    readlens: int = 0
    same: int = 0
    counts: dict[str, int] = field(default_factory=lambda: dict.fromkeys(CLASSES, 0))
    examples: dict[str, list[str]] = field(default_factory=dict)
    missing: list[str] = field(default_factory=list)  # of the words lost, those the page's output does not hold

    def add(self, kind: str, example: str, count: int = 1) -> None:
        self.counts[kind] += count
        kept = self.examples.setdefault(kind, [])
        if len(kept) < EXAMPLES:
            kept.append(example)

    @property
    def faults(self) -> int:
        """Differences other than order: words not read as printed."""
        return sum(count for kind, count in self.counts.items() if kind != "moved")


def _tokens(lines: list[str], furniture: bool = False) -> list[Token]:
    """The words of ``lines`` (a line may be a table's cell), without marks of direction or width."""
    tokens: list[Token] = []
    for line in lines:
        plain = "".join(c for c in unicodedata.normalize("NFKC", line) if unicodedata.category(c) != "Cf")
        words = [word for word in plain.split() if not NO_WORD.match(word)]
        tokens += [Token(word, index == len(words) - 1, furniture) for index, word in enumerate(words)]
    return tokens


def witness_words(text: str) -> list[Token]:
    """The words of the witness's page, as it prints them."""
    return _tokens(text.splitlines())


def readlens_words(text: str, furniture: list[str]) -> list[Token]:
    """The words of ReadLens's page: its Markdown text as printed words, then its furniture."""
    lines = []
    for line in text.splitlines():
        line = LINK.sub(r"\1", LIST_ITEM.sub("", HEADING.sub("", line.strip())))
        if TABLE_RULE.match(line):
            continue
        lines += [cell.replace("\\|", "|") for cell in CELL.split(line)] if line.startswith("|") else [line]
    return _tokens(lines) + _tokens(furniture, furniture=True)


def _runs(
    wanted: dict[int, Token], left: dict[int, Token], length: int, hyphens: bool
) -> list[tuple[int, list[int], str]]:
    """Runs of two or more consecutive positions in ``left`` (positions still unexplained) whose words
    join into one of ``wanted``'s: (its position in wanted, the run's positions, "hyphen" or "")."""
    targets: dict[str, list[int]] = {}
    for position, token in sorted(wanted.items()):
        targets.setdefault(token.text, []).append(position)
    prefixes = {text[:end] for text in targets for end in range(1, len(text) + 1)}

    def run_at(start: int) -> tuple[int, list[int], str] | None:
        joined, broken, hyphenated = "", "", False
        for position in range(start, length):
            token = left.get(position)
            if token is None or (position > start and left[position - 1].line_end and not hyphenated):
                return None
            hyphenated = hyphens and token.line_end and token.text.endswith("-")
            joined += token.text
            broken += token.text[:-1] if hyphenated else token.text
            hit = joined if targets.get(joined) else broken if targets.get(broken) else None
            if position > start and hit:
                return targets[hit].pop(0), list(range(start, position + 1)), "" if hit == joined else "hyphen"
            if joined not in prefixes and broken not in prefixes:
                return None
        return None

    found = []
    start = 0
    while start < length:
        run = run_at(start)
        if run:
            found.append(run)
        start = run[1][-1] + 1 if run else start + 1
    return found


def compare(witness: list[Token], readlens: list[Token]) -> Comparison:
    """The differences between a page's witness words and ReadLens's, classed (module docstring)."""
    result = Comparison(witness=len(witness), readlens=len(readlens))
    matcher = SequenceMatcher(None, [t.text for t in witness], [t.text for t in readlens], autojunk=False)
    blocks = matcher.get_matching_blocks()
    result.same = sum(block.size for block in blocks)
    matched_w = {block.a + i for block in blocks for i in range(block.size)}
    matched_r = {block.b + i for block in blocks for i in range(block.size)}
    left_w = {i: t for i, t in enumerate(witness) if i not in matched_w}
    left_r = {i: t for i, t in enumerate(readlens) if i not in matched_r}
    # split: one witness word, several of ReadLens's in a row
    for key, positions, _ in _runs(left_w, left_r, len(readlens), False):
        word = left_w.pop(key)
        result.add("split", f"{word.text} -> {' '.join(left_r[p].text for p in positions)}")
        for position in positions:
            del left_r[position]
    # merged (or a hyphen mended): several witness words in a row, one of ReadLens's
    for key, positions, kind in _runs(left_r, left_w, len(witness), True):
        word = left_r.pop(key)
        result.add(kind or "merged", f"{' '.join(left_w[p].text for p in positions)} -> {word.text}")
        for position in positions:
            del left_w[position]
    # moved: the same word on both sides, in other places
    waiting: dict[str, list[int]] = {}
    for position, token in sorted(left_w.items()):
        waiting.setdefault(token.text, []).append(position)
    for position, token in sorted(left_r.items()):
        if waiting.get(token.text):
            del left_w[waiting[token.text].pop(0)]
            del left_r[position]
            if not token.furniture:
                result.add("moved", token.text)
    # changed (or a glyph's name): within one stretch the alignment left, a word in its place with other characters
    for tag, w0, w1, r0, r1 in matcher.get_opcodes():
        if tag != "replace":
            continue
        ours = [p for p in range(r0, r1) if p in left_r]
        for position in (p for p in range(w0, w1) if p in left_w):
            match = next((p for p in ours if _alike(left_w[position].text, left_r[p].text)), None)
            if match is not None:
                ours.remove(match)
                ours_text = left_r.pop(match).text
                result.add("cid" if CID.search(ours_text) else "changed", f"{left_w.pop(position).text} -> {ours_text}")
    for position, token in sorted(left_r.items()):
        if CID.search(token.text):
            result.add("cid", token.text)
            del left_r[position]
    for token in left_w.values():
        result.add("lost", token.text)
    for token in left_r.values():
        result.add("added", token.text)
    result.missing = _missing(list(left_w.values()), witness, readlens)
    return result


def _letters(text: str) -> str:
    """``text``'s letters and digits alone, in one case: what a page holds whatever its spacing."""
    return "".join(char for char in unicodedata.normalize("NFKC", text).casefold() if char.isalnum())


def _missing(lost: list[Token], witness: list[Token], readlens: list[Token]) -> list[str]:
    """The ``lost`` words the page's output does not hold (the module's docstring): the witness's
    letters and digits of the word stand fewer times in ReadLens's page, both read as one run of
    letters and digits (so a word split, glued to another or to a rule, or set apart by a mark, is
    held), nor spelled backwards (``_backwards``), nor with its lam-alef ligatures' letters in the order they
    are written (the witness gives them in the order they are drawn: "اإليوي" for "الإيوي")."""
    ours = _letters(" ".join(token.text for token in readlens))
    theirs = _letters(" ".join(token.text for token in witness))
    return [
        token.text
        for token in lost
        if (word := _letters(token.text))
        and not any(unicodedata.category(char) == "Cc" for char in token.text)
        and ours.count(word) < theirs.count(word)
        and not any(backwards in ours for backwards in _backwards(token.text))
        and not any(ours.count(_letters(written)) >= theirs.count(word) for written in _as_written(token.text))
    ]


def _as_written(word: str) -> list[str]:
    """``word`` with some of its alefs drawn before their lam put after it, each choice (the witness gives a
    lam-alef ligature's letters in the order they are drawn; an alef before a lam may be written so too)."""
    found = list(LAM_ALEF.finditer(word))
    turned = []
    for choice in product((False, True), repeat=len(found)):
        letters = list(word)
        for match, turn in zip(found, choice):
            if turn:
                letters[match.start()], letters[match.start() + 1] = letters[match.start() + 1], letters[match.start()]
        turned.append("".join(letters))
    return turned[1:]


def _backwards(word: str) -> tuple[str, str]:
    """``word`` spelled backwards, as a word set mirrored reads: as it is, and with its ligatures the
    right way round (the witness keeps a ligature's letters in order: "srecffio" for "officers")."""
    backwards = turned = _letters(word[::-1])
    for ligature in ("ffi", "ffl", "ff", "fi", "fl"):
        turned = turned.replace(ligature[::-1], ligature)
    return backwards, turned


def _alike(theirs: str, ours: str) -> bool:
    """One word read otherwise: most characters shared, a glyph's name counted as one character."""
    return SequenceMatcher(None, theirs, CID.sub("\ufffd", ours)).ratio() >= CHANGED_RATIO
