"""Charts as text, one wording whatever they were read from: an Office chart's XML (Word,
PowerPoint, Excel) or a chart rebuilt from a PDF's drawing (``readers.pdf.charts``). A chart is a
heading, ``Chart: <title> (<kind> chart)``, then its data as a Markdown table, series as columns
and categories as rows."""

from __future__ import annotations

from collections.abc import Sequence

from .blocks import Block, BlockKind, Box
from .tables import table_block

WHOLE_BELOW = 1e15  # a whole number below this is written as one: Excel keeps 15 significant digits


def number_text(value) -> str:
    """A value as a chart shows it: 910 not 910.0, 0.35 not 0.34999999999999998 (from a chart's
    cached text or a number read off a drawing); text that is no number, as it is."""
    try:
        number = float(value)
    except (TypeError, ValueError):
        return str(value)
    if number.is_integer() and abs(number) < WHOLE_BELOW:
        return str(int(number))
    return f"{number:.15g}"


def chart_heading(title: str, kinds: list[str]) -> str:
    """The line over a chart's table: "Chart: title (kind chart)"."""
    kind = " / ".join(dict.fromkeys(kinds))
    label = f"{kind} chart" if kind else "chart"
    return f"Chart: {title} ({label})" if title else f"Chart ({label})"


def chart_rows(categories: dict[int, str], series: list[tuple[str, dict[int, str]]]) -> list[list[str]]:
    """A chart's data as a table's rows: series as columns, categories as rows (by point index; a
    point with no category is numbered), each value as given, the header first."""
    indexes = sorted(set(categories) | {index for _, values in series for index in values})
    header = ["", *[name or f"Series {number}" for number, (name, _) in enumerate(series, 1)]]
    rows = [
        [categories.get(index, str(index + 1)), *[values.get(index, "") for _, values in series]] for index in indexes
    ]
    return [header, *rows]


def chart_block(heading: str, rows: list[list[str]], notes: Sequence[str] = (), box: Box | None = None) -> Block:
    """A chart's block: its ``heading`` line (``chart_heading``), its data as a Markdown table (``rows``,
    the header first) and what it says under it (``notes``: how its values were read), as one text."""
    table = table_block(rows, box, BlockKind.CHART) if rows else None
    text = "\n\n".join(filter(None, [heading, table.text if table else "", *notes]))
    return Block(BlockKind.CHART, text, box, rows=table.rows if table else ())
