"""Web pages read whole (issue 31): docling's own HTML test files keep every heading, list, code
block and table, in order; tables keep their header rows and captions, spans are carried to every
row and column they cover, a table in a cell is one line of that cell; only the page's chrome is left out."""

from __future__ import annotations

import inspect
import re
import sys

import pytest

from readers import read_file
from readers.markup.html import html_markdown
from testkit import CORPUS, ROOT

HTML = CORPUS / "docling/formats"


def _text(name: str, services, folder=HTML) -> str:
    """Every printed page's text of a corpus page, joined."""
    reading = read_file(folder / name, services=services)
    assert reading.kind == "html"
    return "\n\n".join(page.text for page in reading.pages)


def _tables(markdown: str) -> list[list[list[str]]]:
    """The Markdown tables in ``markdown``, each as its rows of cells (the separator row left out)."""
    tables = []
    for block in re.split(r"\n\s*\n", markdown):
        lines = [line for line in block.split("\n") if line.startswith("|")]
        if lines and len(lines) == len(block.strip().split("\n")):
            tables.append(
                [[cell.strip() for cell in line.strip("|").split(" | ")] for line in lines if "---" not in line]
            )
    return tables


def _valid(table: list[list[str]]) -> bool:
    return len({len(row) for row in table}) == 1


@pytest.mark.parametrize(
    ("name", "expected"),
    [
        ("hyperlink_02.html", ["## [Home](/home.html)"]),
        (
            "hyperlink_03.html",
            [
                "- My Section\n",
                "[A sub page](/home2.html)",
                "This is my [Homepage](/home.html)",
                "- List item inner",
                "- More text [with some links](/some_links.html) and more text.",
                "- My organisation",
            ],
        ),
    ],
)
def test_a_page_that_is_only_menus_is_read_whole_not_said_empty(name, expected, shared_services):
    text = _text(name, shared_services)
    assert text.strip()  # its menus are its main content: its pages are pages of the payload
    for piece in expected:
        assert piece in text


def test_blocks_inside_list_items_keep_the_headings_and_items_around_them(shared_services):
    text = _text("html_nested_block_in_list_item.html", shared_services)
    headings = re.findall(r"^## (.+)$", text, re.M)
    assert headings == [
        "Ordered list with inline elements",
        "Ordered list with paragraph blocks",
        "Nested list in divs",
    ]
    for n in range(1, 5):
        assert f"{n}. Step {n} text" in text
    assert "First paragraph block" in text and "Second paragraph block" in text
    assert "  - Nested detail 1\n  - Nested detail 2" in text  # the DITA-style list stays nested in its item


def test_code_snippets_keep_the_last_list_and_its_code_and_not_the_hidden_block(shared_services):
    text = _text("html_code_snippets.html", shared_services)
    assert "Prefetch the models:\n\n- Use the `docling-tools models download` utility:" in text
    assert "$ docling-tools models download-hf-repo ds4sd/SmolDocling-256M-preview" in text
    assert "`docling.utils.model_downloader.download_models()`" in text
    assert text.count("$ docling-tools") == 1  # the <pre hidden> copy is never shown, so never read


def test_rowspan_and_colspan_are_carried_to_every_slot_under_the_page_heading(shared_services):
    text = _text("example_04.html", shared_services)
    assert text.startswith("# Data Table with Rowspan and Colspan")
    (table,) = _tables(text)
    assert table[0] == ["Header 1", "Header 2 & 3 (colspan)", "Header 2 & 3 (colspan)"]
    assert table[2] == ["Row 1 & 2, Col 1 (rowspan)", "Row 2, Col 2 & 3 (colspan)", "Row 2, Col 2 & 3 (colspan)"]
    assert all(_valid(table) for table in _tables(text))


def test_pivot_tables_all_three_with_the_year_and_quarter_on_every_row(shared_services):
    text = _text("example_08.html", shared_services)
    assert re.findall(r"^## (.+)$", text, re.M) == [
        "Pivot table with with 1 row header",
        "Pivot table with 2 row headers",
        "Equivalent pivot table",
    ]
    tables = _tables(text)
    assert [len(table) for table in tables] == [6, 6, 6]  # a header and five months each: no row of labels alone
    assert tables[0][1] == ["2025", "January", "$134", "$162"]
    assert tables[1][5] == tables[2][5] == ["2025", "Q2", "May", "$280", "$120"]
    assert all(_valid(table) for table in tables)


def test_rich_cells_keep_all_four_tables_their_header_rows_captions_and_the_nested_one_in_its_cell(shared_services):
    text = _text("html_rich_table_cells.html", shared_services)
    for caption in ("Basic duck facts", "Duck family tree (simplified)", "Duck-related actions"):
        assert f"\n{caption}\n\n| " in text
    tables = _tables(text)
    assert len(tables) == 4 and all(_valid(table) for table in tables)
    assert tables[0][:2] == [["Name", "Habitat", "Comment"], ["Wood Duck", "", "Often seen near ponds."]]
    assert ["Teal", "- Pond - Marsh - Riverbank", "1. Fly south in winter 2. Build nest on ground"] in tables[0]
    assert ["Quack", "[Type · Sound / Short · “quak” / Long · “quaaaaaack”]"] in tables[2]  # cells · rows /
    assert tables[3][0] == ["Name", "Description", "Image"] and len(tables[3]) == 5
    assert ["Oxyura (Benthic ducks)", "Wigee, Banded Water-screw"] in tables[1]  # a non-breaking hyphen is a hyphen


def test_tables_nested_three_deep_are_each_one_line_of_the_cell_that_holds_them(shared_services):
    text = _text("table_06.html", shared_services)
    (table,) = _tables(text)
    assert _valid(table)  # no table is written inside a cell as pipe text
    assert table == [
        ["A", "B"],
        ["[A1 · B1 · C1 / D1 · [I · II / III · IV / V · [E1 · E2 / E3 · E4] / VII · VIII] · F1]", "2..."],
    ]  # each table in brackets, so where each starts and ends is plain
    assert text.endswith("| 2... |\n\nAfter table")


def test_a_nested_table_keeps_its_caption_and_its_spanned_cells_once():
    inner = '<table><caption>Calls</caption><tr><th colspan="2">Teal</th></tr><tr><td>quack</td><td>2</td></tr></table>'
    markdown = html_markdown(
        f"<table><tr><th>Duck</th><th>Notes</th></tr><tr><td>Teal</td><td>Loud {inner} at dawn</td></tr></table>"
    )
    assert markdown == "| Duck | Notes |\n|---|---|\n| Teal | Loud [Calls: Teal / quack · 2] at dawn |"


def test_the_same_emphasis_nested_is_marked_once(shared_services):
    text = _text("formatting.html", shared_services)
    assert "**strong + bold mixed**" in text and "****" not in text
    assert "*italic + emphasis together*" in text and "**italic + emphasis together**" not in text
    assert "~~double strikethrough (s + del)~~" in text and "~~~~" not in text
    assert "Water is written as H₂O using sub. The mathematical expression x² + y³ uses sup." in text  # not x2 + y3


def test_a_raised_note_or_ordinal_is_read_as_it_is_a_note_apart_from_its_word():
    assert html_markdown("<p>The 1<sup>st</sup> teal<sup>[1]</sup> of 10<sup>6</sup></p>") == "The 1st teal [1] of 10⁶"
    assert html_markdown("<p>Teal<sup>[1] </sup>dabble <sup>[2]</sup>.</p>") == "Teal [1] dabble [2]."  # spaces once


def test_wikipedia_notes_are_marks_apart_from_their_words_without_their_anchors(shared_services):
    text = _text("wiki_duck.html", shared_services)
    assert "a young duck in downy plumage [1] or baby duck, [2] but in the food trade" in text  # not plumage[[1]](#…)
    assert "genetic studies. [6] [7] The number" in text
    assert "](#" not in text  # no link to a place on the page: its anchor is not in the Markdown
    assert "[vagrants](/wiki/Glossary_of_bird_terms#vagrants)" in text  # another page's place is a link
    assert '\n1. ["Duckling"](http://dictionary.reference.com/browse/duckling). *The American' in text
    assert "**^**" not in text  # a note's "^" back to its mark: a jump, with no word in it


def test_a_link_to_a_place_on_the_page_is_its_text_spaced_as_the_page_shows_it(shared_services):
    assert "Please follow the link to: This page ." in _text("hyperlink_01.html", shared_services)  # href="#"
    text = _text("hyperlink_06.html", shared_services)
    assert "Jump to Section 2 or visit [Example](https://example.com)." in text
    assert "with a top link." in text
    assert "example caption for the image." in _text("hyperlink_05.html", shared_services)  # (#caption) left out


def test_code_is_dedented_in_a_list_and_one_line_in_a_tables_cell(shared_services):
    text = _text("html_code_snippets.html", shared_services)
    assert "  ```\n  $ docling-tools models download-hf-repo ds4sd/SmolDocling-256M-preview\n  Downloading" in text
    cells = _text("html_inline_group_in_table_cell.html", shared_services)
    assert "| Pre with link | `See the docs first` |" in cells  # not ``` See the docs first ```
    assert "| Block code cell | `do_thing()` |" in cells


def test_wikipedia_keeps_its_infobox_and_leaves_its_chrome_out(shared_services):
    text = _text("wiki_duck.html", shared_services)
    assert "| [Scientific classification](/wiki/Taxonomy_(biology)) [Edit this classification](" in text  # the taxobox
    assert "| Duck |  |\n|---|---|\n| [Bufflehead](/wiki/Bufflehead) (*Bucephala albeola*) |  |" in text  # once
    for chrome in ("Jump to content", "Acèh", "Edit links", "Birds portal", "Definitions", "Privacy policy"):
        assert chrome not in text  # a skip link, the language menu beside the title, role=navigation, the footer
    assert "## Etymology" in text and "## See also" in text
    assert "\n| Other | - [IdRef](https://www.idref.fr/027796124) |\n" in text  # navigation that holds a table of data
    assert "\n- [Duck breeds](/wiki/List_of_duck_breeds)\n- [Fictional ducks]" in text
    assert "- *[Ducks at a Distance, by Rob Hines](https://gutenberg.org/ebooks/18884)*" in text  # after an empty item


def _page(body: str) -> str:
    return html_markdown(f"<html><head><title>Pond</title></head><body>{body}</body></html>", main_content=True)


def test_chrome_is_what_the_page_marks_as_chrome_and_an_articles_own_header_and_aside_are_content():
    markdown = _page(
        '<header><a href="/">Site</a></header><nav><a href="/a">A</a></nav>'
        '<div id="cookie-banner">We use cookies</div><div role="search">Search</div>'
        "<main><article><header><h1>Teal</h1><p>By Ada</p></header><p>Teal dabble.</p>"
        "<aside>Fact: teal are small.</aside><footer>Filed under ducks</footer></article>"
        '<div role="contentinfo">Seen at 3 ponds</div></main>'
        '<aside>Other birds</aside><footer>Copyright</footer><div role="contentinfo">Imprint</div>'
    )
    assert markdown == (
        "# Teal\n\nBy Ada\n\nTeal dabble.\n\nFact: teal are small.\n\nFiled under ducks\n\nSeen at 3 ponds"
    )  # a role the page misuses inside its content (Bing's result captions) is content


def test_a_block_of_links_outside_the_article_is_a_menu_and_links_in_prose_are_not():
    links = "".join(f'<li><a href="/p/{n}">Pond {n}</a></li>' for n in range(12))
    prose = " ".join(f'<a href="/d/{n}">duck {n}</a> swims in a pond all year.' for n in range(12))
    markdown = _page(f"<div><ul>{links}</ul></div><div><h1>Ponds</h1><p>{prose}</p></div>")
    assert "Pond 3" not in markdown and "[duck 3](/d/3) swims" in markdown


def test_the_example_web_page_is_read_without_its_menu_sidebar_footer_and_cookie_notice():
    markdown = html_markdown((ROOT / "assets" / "web-page.html").read_text(encoding="utf-8"), main_content=True)
    assert markdown.startswith("# Quarterly update: sales up in every region\n\nSales grew in **every quarter")
    assert markdown.endswith("1. Open two offices in the South.\n2. Hire a support team for small businesses.")
    assert "| North | 120 | 135 | 150 | 170 |" in markdown


def test_spans_that_would_lay_out_millions_of_cells_give_each_cell_once():
    rows = "".join(f'<tr><td rowspan="1000" colspan="1000">x{n}</td><td>y</td></tr>' for n in range(300))
    markdown = html_markdown(f"<table>{rows}</table>")
    assert markdown.split("\n") == ["| x0 | y |", "|---|---|", *(f"| x{n} | y |" for n in range(1, 300))]


def test_a_table_too_large_even_without_spans_keeps_its_first_rows_and_says_so():
    rows = "".join(f"<tr><td>r{n}</td><td>s</td></tr>" for n in range(300)) + "<tr>" + "<td>w</td>" * 5000 + "</tr>"
    markdown = html_markdown(f"<table>{rows}</table>")
    assert markdown.endswith("\n\n(rows 1–200 of 301 shown: the table has over 1,000,000 cells)")
    assert "| r199 | s |" in markdown and "r200" not in markdown


def test_a_page_nested_deeper_than_the_converter_can_follow_is_read_as_its_text():
    depth = 150  # markdownify takes three calls a level: 450 calls, past the limit set here
    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(len(inspect.stack()) + 300)
    try:
        markdown = html_markdown(f"<p>Top of the pond.</p>{'<div>' * depth}<b>Deep</b> water{'</div>' * depth}")
    finally:
        sys.setrecursionlimit(limit)
    assert markdown.startswith("Top of the pond.") and markdown.endswith("Deep water")  # its words, unformatted


def test_a_cookie_notice_is_chrome_and_a_list_of_cookies_is_content():
    markdown = _page(
        '<div class="cookie-consent">We use cookies. <button>Accept</button></div>'
        '<main><h1>Biscuits</h1><ul class="cookie-list"><li>Oat cookie</li><li>Ginger cookie</li></ul></main>'
    )
    assert markdown == "# Biscuits\n\n- Oat cookie\n- Ginger cookie"


def test_a_span_that_is_no_ascii_number_spans_one_cell():
    cells = '<td rowspan="²" colspan="١">a</td><td colspan="2px">b</td>'
    markdown = html_markdown(f"<table><tr>{cells}</tr><tr><td>c</td><td>d</td></tr></table>")
    assert markdown == "| a | b |\n|---|---|\n| c | d |"


def test_a_blog_post_keeps_its_article_and_leaves_the_sites_menus_sidebar_and_footer_out(shared_services):
    text = _text("test_blog.html", shared_services, CORPUS / "markitdown")
    assert text.startswith("# Does Model and Inference Parameter Matter in LLM Applications? - A Case Study for MATH")
    for phrase in (
        "Large language models (LLMs) are powerful tools that can generate natural language texts for various "
        "applications, such as chatbots, summarization, translation, and more.",
        "an example where high cost can easily prevent a generic complex",  # markitdown's own test of this page
        "**Tags:**",  # the article's own footer
    ):
        assert phrase in text
    for chrome in ("Skip to main content", "Recent posts", "Copyright ©", "Newer Post", "Notebooks"):
        assert chrome not in text  # a skip link, the sidebar, the site's footer, the pager, the navbar


def test_a_page_laid_out_with_tables_reads_as_paragraphs_not_as_tables(shared_services):
    text = _text("ideas-page.html", shared_services, CORPUS / "unstructured")
    assert "|" not in text and " · " not in text  # a one-row frame and one-cell boxes are no tables
    assert "\n\nJanuary 2023\n\n*([Someone](https://twitter.com/stef/status/1617222428727586816) fed my essays" in text
    assert (
        "at the frontiers of knowledge.\n\nKnowledge grows fractally. From a distance its edges look smooth" in text
    )  # the essay's paragraphs, apart


def test_a_table_the_page_calls_presentation_is_read_as_blocks_and_a_data_table_in_it_stays_one():
    markdown = html_markdown(
        '<table role="presentation"><tr><td><h2>News</h2><p>One</p></td>'
        "<td><table><tr><td>A</td><td>B</td></tr><tr><td>1</td><td>2</td></tr></table></td></tr></table>"
    )
    assert markdown == "## News\n\nOne\n\n| A | B |\n|---|---|\n| 1 | 2 |"


def test_the_title_the_page_does_not_show_is_its_first_pages_furniture_not_its_text(shared_services):
    """example_06.html is titled "Sample HTML File", which its body never shows: the title is what a
    browser shows in its tab and prints in the margin, so it stands beside the text, not in it."""
    assert _page("<p>Teal dabble.</p>") == "Teal dabble."
    reading = read_file(HTML / "example_06.html", services=shared_services)
    assert reading.pages[0].furniture == ["Sample HTML File"]
    assert reading.pages[0].text.startswith("This is a div with text.") and "Sample HTML" not in reading.as_text()
    assert all(not page.furniture for page in reading.pages[1:])


def test_a_variable_is_italic_as_a_browser_shows_it(shared_services):
    text = _text("html_code_snippets.html", shared_services)
    assert "the lengths of the sides *a*, *b* and the hypotenuse *c*." in text


def test_a_header_of_several_rows_is_one_row_of_joined_labels_under_its_title():
    head = (
        '<thead><tr><th colspan="3">Ducks seen</th></tr><tr><th rowspan="2">Pond</th><th colspan="2">Spring</th></tr>'
        "<tr><th>March</th><th>April</th></tr></thead>"
    )
    markdown = html_markdown(f"<table>{head}<tbody><tr><td>Mill</td><td>4</td><td>7</td></tr></tbody></table>")
    assert markdown == (
        "Ducks seen\n\n| Pond | Spring / March | Spring / April |\n|---|---|---|\n| Mill | 4 | 7 |"
    )  # the title over the columns once, each column named whole, the label spanning down once
    only_head = "<table><thead><tr><th>Pond</th><th>Ducks</th></tr><tr><td>Mill</td><td>4</td></tr></thead></table>"
    assert html_markdown(only_head) == "| Pond | Ducks |\n|---|---|\n| Mill | 4 |"  # all in <thead>: rows kept apart


def test_navigation_is_chrome_but_for_a_table_of_data_it_holds_in_the_content():
    data = "<table><tr><th>National</th><td>France</td></tr><tr><th>Other</th><td>IdRef</td></tr></table>"
    menu = '<div role="navigation"><table><tr><td><a href="/a">A</a></td><td><a href="/b">B</a></td></tr></table></div>'
    markdown = _page(
        f'<div role="navigation">{data}</div><main><p>Teal.</p>{menu}<div role="navigation">{data}</div></main>'
    )
    assert markdown == "Teal.\n\n| National | France |\n|---|---|\n| Other | IdRef |"  # once: outside is chrome


def test_an_item_that_only_holds_a_list_has_no_empty_bullet(shared_services):
    text = _text("example_07.html", shared_services)
    assert "  - Switzerland\n      - Bern\n      - Aargau\n  - Italy" in text  # two lists in, as the page nests them
    assert "- -" not in text


def test_a_headings_anchor_link_leaves_neither_its_target_nor_its_zero_width_space(shared_services):
    text = _text("test_blog.html", shared_services, CORPUS / "markitdown")
    assert "\n## Experiment Setup\n" in text  # not "## Experiment Setup[\u200b](#experiment-setup)"
    assert "\n- Experiment Setup\n- Experiment Results\n" in text  # the table of contents: its entries' text
    assert "\u200b" not in text
