"""Numbers, dates and times in a cell's number format, as Excel shows them (``display``):
"#,##0.00" gives "1,234.50", "d/m/yy h:mm AM/PM" gives "31/3/24 2:05 PM", a format's literal text
and its sections (positive; negative; zero; text) kept. A format that cannot be applied (longer
than Excel takes, or one whose percent signs overflow) shows the cell's raw value instead, and
the caller is told which format it was."""

from __future__ import annotations

import datetime
import decimal
import re

from openpyxl.styles.numbers import is_date_format
from openpyxl.utils.datetime import from_excel

from ..markup.charts import WHOLE_BELOW

LITERAL_MARK = 0xE000  # a format code's literals stand aside as private-use characters while its placeholders are read
# a quoted or escaped literal, a bracket ([Red], [$€-407]), a pad (_)), a fill (*-), or a private-use
# character of the code's own (which would be taken for a literal's marker)
LITERALS = re.compile(r'"[^"]*"|\\.|\[[^\]]*\]|_.|\*.|[\ue000-\uf8ff]')
MAX_FORMAT_CHARS = 255  # Excel takes a number format code of at most 255 characters
TIME_ONLY_DAY = datetime.date(1900, 1, 1)  # the day a time alone is set on to be formatted: Excel's first day
DATE_CODES = [
    ("yyyy", "%Y"),
    ("yy", "%y"),
    ("mmmmm", "%b"),
    ("mmmm", "%B"),
    ("mmm", "%b"),
    ("dddd", "%A"),
    ("ddd", "%a"),
    ("dd", "%d"),
    ("d", "%-d"),
    ("hh", "%H"),
    ("h", "%-H"),
    ("ss", "%S"),
    ("s", "%-S"),
    ("am/pm", "%p"),
    ("a/p", "%p"),
]


def _sections(code: str) -> list[str]:
    """A format code's sections (positive;negative;zero;text), splitting only outside quotes."""
    return re.findall(r'(?:"[^"]*"|\\.|[^;"\\])+', code) or [""]


def _literals(section: str) -> tuple[str, list[str]]:
    """The section with its quoted and escaped literals replaced by markers, and the literals."""
    found: list[str] = []

    def keep(match: re.Match) -> str:
        token = match.group()
        if token.startswith("[$"):
            text = token[2:-1].split("-")[0]  # [$€-407]: a currency symbol and a locale
        elif token.startswith("["):
            return ""  # [Red], [>100], [$-409] without a symbol
        elif token.startswith("_"):
            text = " "  # _) pads as wide as the character
        elif token.startswith("*"):
            return ""  # *- repeats to fill the cell
        elif token.startswith(('"', "\\")):
            text = token[1:-1] if token.startswith('"') else token[1:]
        else:
            text = token  # a private-use character: itself
        found.append(text)
        return chr(LITERAL_MARK + len(found) - 1)

    return LITERALS.sub(keep, section), found


def _restore(text: str, literals: list[str]) -> str:
    return re.sub("[\ue000-\uf8ff]", lambda m: literals[ord(m.group()) - LITERAL_MARK], text)


def _date_text(value, code: str) -> str:
    """A date or time in an Excel date code (m is minutes after h and before s: the letters either
    side of a run of m's are found in one pass each way, so a long code costs its length)."""
    lowered = code.lower()
    twelve_hour = "am/pm" in lowered or "a/p" in lowered
    following = [""] * (len(lowered) + 1)  # the first letter at or after each index
    for index in range(len(lowered) - 1, -1, -1):
        following[index] = lowered[index] if "a" <= lowered[index] <= "z" else following[index + 1]
    out, index, before = [], 0, ""
    while index < len(lowered):
        if lowered[index] == "m":
            run = 1
            while lowered.startswith("m", index + run):
                run += 1
            minutes = run <= 2 and (before == "h" or following[index + run] == "s")
            out.append({1: "%-M" if minutes else "%-m", 2: "%M" if minutes else "%m", 3: "%b", 4: "%B"}.get(run, "%b"))
            index += run
            before = "m"
            continue
        for token, directive in DATE_CODES:
            if lowered.startswith(token, index):
                out.append(directive.replace("H", "I") if twelve_hour and token in ("hh", "h") else directive)
                index += len(token)
                before = token[-1]
                break
        else:
            out.append(code[index].replace("%", "%%"))
            before = lowered[index] if "a" <= lowered[index] <= "z" else before
            index += 1
    if isinstance(value, datetime.time):
        value = datetime.datetime.combine(TIME_ONLY_DAY, value)
    elif not isinstance(value, datetime.datetime):
        value = datetime.datetime.combine(value, datetime.time())
    return value.strftime("".join(out))


def _whole(digits: str, placeholders: str) -> str:
    """A number's whole digits in its format's whole-part placeholders, as Excel fills them: the
    digits take the rightmost placeholders, and of those left over each 0 shows a zero, each ? a
    space and each # nothing ("00000" shows 12 as "00012", "0#" shows 1 as "01", "#" shows 0 as "")."""
    placeholders = re.sub(r"[^0#?]", "", placeholders)
    if digits == "0" and "0" not in placeholders:
        digits = ""
    left = placeholders[: max(len(placeholders) - len(digits), 0)]
    return left.replace("#", "").replace("?", " ") + digits


def _number_text(value: float, section: str) -> str:
    code, literals = _literals(section)
    placeholder = re.search(r"[0#?][0#?,]*(?:\.[0#?]*)?(?:[eE][+-][0#]+)?|\.[0#?]+", code)
    if placeholder is None:  # a section of literals only, e.g. "-" for zero
        return _restore(code.replace("@", ""), literals).strip()
    pattern = placeholder.group()
    value *= 100 ** code.count("%")
    mantissa = re.split(r"[eE]", pattern)[0]
    decimals = mantissa.split(".")[1] if "." in mantissa else ""
    exponent = re.search(r"[eE]", pattern)
    exact = decimal.Decimal(f"{value:.15g}")  # Excel's 15 digits, rounded half away from zero as Excel does
    with decimal.localcontext(rounding=decimal.ROUND_HALF_UP):
        grouping = "," if "," in mantissa else ""
        scientific = exact if exact else 0.0  # a Decimal zero keeps its exponent: "0.00E+2"
        text = f"{scientific:.{len(decimals)}E}" if exponent else f"{exact:{grouping}.{len(decimals)}f}"
    if exponent:  # E+00 shows at least two digits of the exponent
        places = len(pattern) - exponent.end() - 1
        text = re.sub(r"E([+-])(\d+)$", lambda m: f"E{m.group(1)}{m.group(2).zfill(places)}", text)
    else:
        optional = len(decimals) - len(decimals.rstrip("#?"))  # 0.## shows 1.5, not 1.50
        if optional and "." in text:
            text = re.sub(rf"0{{0,{optional}}}$", "", text).rstrip(".")
        text = re.sub(r"^(-?)(\d+)", lambda m: m.group(1) + _whole(m.group(2), mantissa.split(".")[0]), text)
    return _restore(code[: placeholder.start()] + text + code[placeholder.end() :], literals)


def display(value, number_format: str | None, bad: set[str] | None = None) -> str:
    """A cell's value as the cell shows it, from its number format (the common codes of Excel).

    A format that cannot be applied (longer than ``MAX_FORMAT_CHARS``, or one that overflows: 200
    percent signs multiply by 10^400) shows the raw value, and is added to ``bad`` when given."""
    if value is None:
        return ""
    if isinstance(value, bool):
        return "TRUE" if value else "FALSE"
    code = number_format or "General"
    if len(code) <= MAX_FORMAT_CHARS:
        try:
            return _display(value, code)
        except (ArithmeticError, ValueError):  # OverflowError and decimal's errors are ArithmeticErrors
            pass
    if bad is not None:
        bad.add(code)
    if isinstance(value, datetime.datetime):
        return value.isoformat(sep=" ")
    return value.isoformat() if isinstance(value, (datetime.date, datetime.time)) else str(value)


def _display(value, code: str) -> str:
    if isinstance(value, (datetime.datetime, datetime.date, datetime.time)):
        section, literals = _literals(_sections(code)[0])
        if re.search(r"[ymdhs]", section, re.I):
            return _restore(_date_text(value, section), literals)
        return value.isoformat(sep=" ") if isinstance(value, datetime.datetime) else value.isoformat()
    if isinstance(value, datetime.timedelta):
        return str(value)
    if isinstance(value, (int, float)) and code != "General" and is_date_format(code):  # a chart's cached date
        try:
            value = from_excel(value)
        except (ValueError, OverflowError):
            return str(value)
        return _display(value, code)
    if isinstance(value, str):
        sections = _sections(code)
        if len(sections) < 4:
            return value
        section, literals = _literals(sections[3])
        return _restore(section.replace("@", value), literals)
    if code == "General" or code == "@":
        return str(int(value)) if float(value).is_integer() and abs(value) < WHOLE_BELOW else f"{value:.10g}"
    sections = _sections(code)
    if value < 0 and len(sections) > 1:
        return _number_text(-value, sections[1])
    if value == 0 and len(sections) > 2:
        return _number_text(value, sections[2])
    return _number_text(value, sections[0])
