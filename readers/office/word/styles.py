"""Word's paragraph styles and list numbering, and the WordprocessingML names the walker shares.

Styles give each paragraph style's outline level (so localized and custom heading styles count),
list and name, following ``basedOn``. Numbering gives list markers as Word shows them: each
level's format and text ("%1.%2."), counters that continue across a list's paragraphs and restart
deeper levels. Damaged attributes count as their defaults, clamped to what Word allows.
"""

from __future__ import annotations

import re

from ...markup.markdown import counter

W = "{http://schemas.openxmlformats.org/wordprocessingml/2006/main}"
W14 = "{http://schemas.microsoft.com/office/word/2010/wordml}"
BODY_LEVEL = 9  # outline level 9 is body text; 0-8 are heading levels 1-9


def attribute_int(value, default: int) -> int:
    """An attribute's whole number; a damaged one counts as ``default``."""
    try:
        return int(value)
    except (TypeError, ValueError):
        return default


def list_level(value) -> int:
    """A list level (w:ilvl) clamped to Word's nine, whatever a damaged file says."""
    return min(max(attribute_int(value, 0), 0), 8)


def num_pr(num) -> tuple[str | None, int | None]:
    """A w:numPr's list (numId) and level (ilvl, clamped to Word's nine levels); None for each
    one it does not give, both when there is no numPr."""
    if num is None:
        return None, None
    found_id, found_level = num.find(f"{W}numId"), num.find(f"{W}ilvl")
    return (
        found_id.get(f"{W}val") if found_id is not None else None,
        list_level(found_level.get(f"{W}val")) if found_level is not None else None,
    )


def is_on(element) -> bool:
    """A toggle such as w:vanish: present and not switched off."""
    return element is not None and element.get(f"{W}val", "true") not in ("0", "false", "off")


class Numbering:
    """List numbers as Word shows them: each level's format and text ("%1.%2."), counters that
    continue across a list's paragraphs and restart deeper levels."""

    def __init__(self, root):
        self.abstract: dict[str, dict[int, tuple[str, str, int]]] = {}
        self.links: dict[str, str] = {}  # abstractNum -> list style it takes its levels from
        self.nums: dict[str, tuple[str, dict[int, int]]] = {}
        self.counters: dict[str, list[int | None]] = {}
        self.started: set[str] = set()
        if root is None:
            return
        for abstract in root.findall(f"{W}abstractNum"):
            levels = {}
            for level in abstract.findall(f"{W}lvl"):
                levels[attribute_int(level.get(f"{W}ilvl"), 0)] = self._level(level)
            self.abstract[abstract.get(f"{W}abstractNumId")] = levels
            style_link = abstract.find(f"{W}numStyleLink")
            if style_link is not None:
                self.links[abstract.get(f"{W}abstractNumId")] = style_link.get(f"{W}val")
        for num in root.findall(f"{W}num"):
            abstract_id = num.find(f"{W}abstractNumId")
            overrides = {}
            for override in num.findall(f"{W}lvlOverride"):
                start = override.find(f"{W}startOverride")
                if start is not None:
                    overrides[list_level(override.get(f"{W}ilvl"))] = attribute_int(start.get(f"{W}val"), 1)
            if abstract_id is not None:
                self.nums[num.get(f"{W}numId")] = (abstract_id.get(f"{W}val"), overrides)

    @staticmethod
    def _level(level) -> tuple[str, str, int]:
        fmt, text, start = level.find(f"{W}numFmt"), level.find(f"{W}lvlText"), level.find(f"{W}start")
        return (
            fmt.get(f"{W}val", "decimal") if fmt is not None else "decimal",
            text.get(f"{W}val", "") if text is not None else "",
            attribute_int(start.get(f"{W}val"), 1) if start is not None else 1,
        )

    def marker(self, num_id: str, ilvl: int, style_num) -> str | None:
        """The item's marker ("-" for a bullet, "2.", "b)", "1.3" ...), or None if not a list."""
        if num_id not in self.nums:
            return None
        abstract_id, overrides = self.nums[num_id]
        levels = self.abstract.get(abstract_id, {})
        if not levels and abstract_id in self.links:
            linked = style_num(self.links[abstract_id])
            if linked and linked in self.nums:
                abstract_id = self.nums[linked][0]
                levels = self.abstract.get(abstract_id, {})
        if ilvl not in levels:
            return None
        counters = self.counters.setdefault(abstract_id, [None] * 10)
        if num_id not in self.started:
            self.started.add(num_id)
            for level, start in overrides.items():
                counters[level] = start - 1
        fmt, text, start = levels[ilvl]
        current = counters[ilvl]
        reached = (current if current is not None else start - 1) + 1
        counters[ilvl] = reached
        for deeper in range(ilvl + 1, len(counters)):
            counters[deeper] = None
        if fmt == "bullet":
            return "-"
        if fmt == "none":
            return ""

        def number(match) -> str:
            level = int(match.group(1)) - 1
            level_fmt, _, level_start = levels.get(level, ("decimal", "", 1))
            value = counters[level]
            return counter(value if value is not None else level_start, level_fmt)

        return re.sub(r"%(\d)", number, text).strip() or counter(reached, fmt)


class Styles:
    """Outline level, list and name of each paragraph style, following basedOn."""

    def __init__(self, root):
        self.styles = {}
        self.default = None
        for style in root.findall(f"{W}style") if root is not None else []:
            if style.get(f"{W}type") != "paragraph":
                continue
            style_id = style.get(f"{W}styleId")
            name = style.find(f"{W}name")
            based = style.find(f"{W}basedOn")
            ppr = style.find(f"{W}pPr")
            outline = ppr.find(f"{W}outlineLvl") if ppr is not None else None
            num = ppr.find(f"{W}numPr") if ppr is not None else None
            self.styles[style_id] = {
                "name": name.get(f"{W}val", "") if name is not None else "",
                "based": based.get(f"{W}val") if based is not None else None,
                "outline": attribute_int(outline.get(f"{W}val"), BODY_LEVEL) if outline is not None else None,
                "num": num,
            }
            if style.get(f"{W}default") in ("1", "true"):
                self.default = style_id

    def chain(self, style_id):
        seen = set()
        while style_id in self.styles and style_id not in seen:
            seen.add(style_id)
            yield self.styles[style_id]
            style_id = self.styles[style_id]["based"]

    def lookup(self, style_id, key):
        return next((style[key] for style in self.chain(style_id or self.default) if style[key] is not None), None)

    def name(self, style_id) -> str:
        style = self.styles.get(style_id or self.default)
        return style["name"] if style else ""

    def num_id(self, style_id) -> str | None:
        return num_pr(self.lookup(style_id, "num"))[0]
