"""Vector charts in PDFs reach a text-only model as their data (issue 18): each chart fixture of
``testkit/fixtures/charts.py`` goes through the real reader, and its table, read back from the
page's text, is compared with the numbers it was drawn from. Drawings that are no chart stay
free of tables; ``assets/chart-report.pdf`` no longer pairs a slice with another's share."""

from __future__ import annotations

import math
import re
import shutil

import pytest

from readers import Services, read_file
from testkit import ROOT, make_settings
from testkit.fixtures import charts as made

HEADING = re.compile(r"^Chart(?:: (?P<title>.+))? \((?P<kind>.+) chart\)$")
HOW = {
    "printed": "values as printed",
    "drawn": "values read from the drawing, ±1% of the axis",
    "angles": "shares from the wedges' angles",
}
NUMBER = r"[-−]?\d[\d.,]*%?"
NUMBER_RUN = re.compile(rf"(?<![\w.]){NUMBER}(?:\s+{NUMBER}){{2,}}(?![\w.])")  # "0 10 20 30": loose tick labels
NO_LIBREOFFICE = pytest.mark.skipif(
    shutil.which("soffice") is None,
    reason="LibreOffice (soffice) is not installed: the deck cases export their charts with it",
)
AXIS_TITLES = {
    "grouped_bars": ["Month", "Orders"],
    "horizontal_bars": ["Visitors (millions)"],
    "stacked_bars": ["EUR m"],
    "line_markers": ["Year"],
    "line_plain": ["°C"],
    "scatter": ["Dose (mg)", "Response"],
    "bar_labels": ["Units"],
}


def _cases(names):
    return [pytest.param(name, marks=NO_LIBREOFFICE) if name in made.NEEDS_LIBREOFFICE else name for name in names]


CHARTS = _cases(name for name in made.CASES if name not in {"flow_diagram", "framed_text", "ruled_table", "logo"})
NEGATIVES = _cases(["flow_diagram", "framed_text", "ruled_table", "logo"])


@pytest.fixture(scope="session")
def readings(tmp_path_factory):
    """Each case made and read once per session, on demand (a skipped deck is never exported):
    ``readings(name)`` gives ``(reading, truth)``. Local OCR is the describer, as with nothing configured."""
    folder = tmp_path_factory.mktemp("charts")
    services = Services(make_settings(folder / "cache", vision_provider="ocr"))
    done = {}

    def read(name: str):
        if name not in done:
            path, truth = made.CASES[name](folder)
            done[name] = read_file(path, services=services), truth
        return done[name]

    return read


def chart_blocks(text: str) -> tuple[list[dict], str]:
    """The chart blocks of a page's text (heading, Markdown table, the line saying how the values
    were obtained), and the text around them."""
    lines, blocks, rest, index = text.split("\n"), [], [], 0
    while index < len(lines):
        match = HEADING.match(lines[index])
        if not match:
            rest.append(lines[index])
            index += 1
            continue
        start = index
        before = next((line.lstrip("# ").strip() for line in reversed(rest) if line.strip()), None)
        table, index = [], index + 1
        while index < len(lines) and (not lines[index].strip() or lines[index].startswith("|")):
            if lines[index].startswith("|"):
                table.append([cell.strip() for cell in lines[index].strip().strip("|").split("|")])
            index += 1
        axis = None
        if index < len(lines) and lines[index].startswith("Value axis: "):  # a value axis' title, with several series
            axis, index = lines[index].removeprefix("Value axis: "), index + 1
            while index < len(lines) and not lines[index].strip():
                index += 1
        if index < len(lines) and lines[index].startswith("Axis ticks and other labels: "):  # what its table lacks
            index += 1
            while index < len(lines) and not lines[index].strip():
                index += 1
        how = lines[index].strip() if index < len(lines) else ""
        assert len(table) >= 3 and set("".join(table[1])) <= set("-:"), f"a chart's heading without its table:\n{text}"
        blocks.append(
            {
                "title": match["title"],
                "kind": match["kind"],
                "line_before": before,
                "header": table[0],
                "rows": table[2:],
                "how": how[1:-1] if how.startswith("*") and how.endswith("*") else None,
                "value_axis": axis,
                "body": "\n".join(lines[start + 1 : index + 1]),
            }
        )
        index += 1
    return blocks, "\n".join(rest)


def loose(words: str, text: str) -> bool:
    """Whether ``words`` stand in ``text`` as words of their own."""
    return re.search(rf"(?<!\w){re.escape(words)}(?!\w)", text) is not None


def value(cell: str) -> float | None:
    return None if cell == "" else float(cell.replace("−", "-"))


def check_table(block: dict, truth: dict) -> list[str]:
    """What differs between a chart block and its truth (empty: they agree): names, and every value
    within 1% of its axis' range (pie shares within 1 point)."""
    errors = []
    if truth["kind"] in ("pie", "donut"):
        got = {name: value(share) for name, share in block["rows"]}
        if block["header"] != ["Slice", "Share (%)"] or set(got) != set(truth["shares"]):
            return [f"slices {block['header']} {sorted(got)} != {sorted(truth['shares'])}"]
        return [
            f"{name}: {got[name]} != {share}"
            for name, share in truth["shares"].items()
            if got[name] is None or abs(got[name] - share) > 1
        ]
    low, high = truth["axis"]
    tolerance = 0.01 * (high - low)
    if truth["kind"] == "scatter":
        y_tolerance = 0.01 * (truth["yaxis"][1] - truth["yaxis"][0])
        if block["header"][0] != "Series" or len(block["header"]) != 3:
            return [f"header {block['header']}"]
        for name, points in truth["points"].items():
            got = sorted((value(x), value(y)) for series, x, y in block["rows"] if series == name)
            if len(got) != len(points):
                errors.append(f"{name}: {len(got)} points != {len(points)}")
                continue
            for (gx, gy), (tx, ty) in zip(got, sorted(map(tuple, points))):
                if abs(gx - tx) > tolerance or abs(gy - ty) > y_tolerance:
                    errors.append(f"{name}: ({gx}, {gy}) != ({tx}, {ty})")
        if {series for series, _, _ in block["rows"]} != set(truth["points"]):
            errors.append(f"series {sorted({row[0] for row in block['rows']})} != {list(truth['points'])}")
        return errors
    single = len(truth["series"]) == 1
    series = block["header"][1:]
    if not (series == truth["series"] or single and series == ["Value"]):  # one series: its axis' title, or "Value"
        errors.append(f"series {series} != {truth['series']}")
    if block["header"][0] not in ("", truth.get("category_title")):
        errors.append(f"category title {block['header'][0]!r}")
    if [row[0] for row in block["rows"]] != truth["categories"]:
        errors.append(f"categories {[row[0] for row in block['rows']]} != {truth['categories']}")
    for row, wanted in zip(block["rows"], truth["rows"]):
        for cell, want in zip(row[1:], wanted):
            got = value(cell)
            near = (
                got is not None
                and (abs(math.log10(got) - math.log10(want)) if truth.get("log") else abs(got - want)) <= tolerance
            )
            if not near:
                errors.append(f"{row[0]}: {cell!r} != {want}")
    return errors


@pytest.mark.parametrize("name", CHARTS)
def test_a_chart_becomes_its_table_where_it_stands(readings, name):
    reading, truth = readings(name)
    page = reading.pages[0]
    blocks, _ = chart_blocks(page.text)
    assert len(blocks) == 1, page.text
    block = blocks[0]
    assert block["kind"] == truth["kind"], page.text
    # The title heads the table, or (set larger, further off) stands on the line just before it.
    assert block["title"] == truth["title"] or block["title"] is None and block["line_before"] == truth["title"], (
        page.text
    )
    assert block["how"] == HOW[truth["how"]], page.text
    assert check_table(block, truth) == [], page.text
    shown = len(truth["shares"]) if "shares" in truth else len(truth.get("points") or truth["series"])
    assert [figure.chart for figure in page.figures] == [
        f"{truth['kind']}, {shown} {'slices' if 'shares' in truth else 'series'}"
    ]


@pytest.mark.parametrize("name", CHARTS)
def test_a_charts_labels_leave_the_prose(readings, name):
    """Ticks, data labels, legend and category names are read once, in the chart's block (its table, or
    its line of the labels its table lacks, the axes' ticks): none of them is left loose in the text
    around it."""
    reading, truth = readings(name)
    _, rest = chart_blocks(reading.pages[0].text)
    rest = rest.replace(truth["title"], "")
    assert re.findall(rf"(?<![\w.]){NUMBER}(?![\w.])", rest) == [], rest
    legend = list(truth.get("points") or truth.get("series") or [])  # (one series' name is its axis' title: see below)
    names = [*truth.get("categories", []), *truth.get("shares", {}), *(legend if len(legend) > 1 else [])]
    assert [name for name in names if loose(name, rest)] == [], rest


@pytest.mark.parametrize("name", CHARTS)
def test_the_visual_content_says_the_data_is_in_the_text(readings, name):
    reading, _ = readings(name)
    text = reading.as_text()
    assert "[PAGE 1 - VISUAL CONTENT]" in text
    assert f"a chart ({reading.pages[0].figures[0].chart}); its data is in the page's text, as a table." in text
    assert "labels are in the page's text" not in text


@pytest.mark.parametrize("name", AXIS_TITLES)
def test_axis_titles_stand_with_their_chart(readings, name):
    """An axis' title is read once, in the chart's block (not its heading), not left in the prose: a
    category axis' title heads its column, one series is named by its value axis, several say
    "Value axis: ...", a scatter's axes name its x and y columns."""
    reading, truth = readings(name)
    blocks, rest = chart_blocks(reading.pages[0].text)
    rest = rest.replace(truth["title"], "")
    assert [title for title in AXIS_TITLES[name] if loose(title, rest) or title not in blocks[0]["body"]] == [], (
        reading.pages[0].text
    )


@pytest.mark.parametrize("name", NEGATIVES)
def test_a_drawing_that_is_no_chart_is_not_forced_into_a_table(readings, name):
    reading, truth = readings(name)
    assert truth == {"negative": True}
    page = reading.pages[0]
    assert chart_blocks(page.text)[0] == [] and "Chart" not in page.text, page.text
    assert all(figure.chart is None for figure in page.figures)
    assert "a chart (" not in reading.as_text()


@pytest.fixture(scope="module")
def report(tmp_path_factory):
    return read_file(
        ROOT / "assets" / "chart-report.pdf",
        services=Services(make_settings(tmp_path_factory.mktemp("report"), vision_provider="ocr")),
    )


def test_the_example_reports_bars_and_pie_are_tables(report):
    bars, around_bars = chart_blocks(report.pages[0].text)
    truth = {
        "kind": "bar",
        "series": ["North", "South"],
        "categories": ["Q1", "Q2", "Q3", "Q4"],
        "rows": [[120, 90], [135, 95], [150, 110], [170, 125]],
        "axis": [0, 180],
    }
    assert [block["kind"] for block in bars] == ["bar"] and check_table(bars[0], truth) == []
    assert bars[0]["how"] == HOW["printed"]
    assert NUMBER_RUN.search(around_bars) is None and "Q1 Q2" not in around_bars, around_bars
    pie, around_pie = chart_blocks(report.pages[1].text)
    assert [block["kind"] for block in pie] == ["pie"]
    assert (
        check_table(pie[0], {"kind": "pie", "shares": {"Enterprise": 45, "Small business": 35, "Consumer": 20}}) == []
    )
    assert [figure.chart for page in report.pages[:2] for figure in page.figures] == ["bar, 2 series", "pie, 3 slices"]


def test_the_example_reports_pie_no_longer_pairs_a_slice_with_anothers_share(report):
    text = report.pages[1].text
    _, around = chart_blocks(text)
    assert "%" not in around, around
    assert re.search(r"20\s*%\s*\W*\s*Enterprise", text) is None
    assert "| Enterprise | 45 |" in text and "| Consumer | 20 |" in text
