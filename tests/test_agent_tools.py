"""Answers sized for an agent (issue 23): read_file within max_tokens, outline and find — through the
official ``mcp`` client and through ``gradio_client``, against the same ``python app.py`` the other
API tests use, on a generated 300-page PDF (``testkit.fixtures.book``) and the app's chart report."""

from __future__ import annotations

import ast
import asyncio
import re

import pytest
from gradio_client import handle_file
from gradio_client.exceptions import AppError
from mcp import ClientSession
from mcp.client.streamable_http import streamable_http_client

from readers import ReaderError, read_file
from readers.payload.budget import Cursor, fit
from readers.payload.search import Search, compile_query, merged
from readers.payload.tokens import text_tokens
from testkit import CORPUS, ROOT
from testkit.fixtures import log_line, numbered_log
from testkit.fixtures.book import (
    APPENDIX_PAGE,
    BOOK_PAGES,
    CHAPTER_PAGES,
    RARE_WORDS,
    TABLE_PAGES,
    chapter_title,
    field_manual_pdf,
    section_title,
)
from tests.test_mcp import inline, mcp_url
from tests.test_ui_server import GENERIC_ANSWER
from ui.search import held
from ui.tools import find_json, outline_json

REPORT_PDF = ROOT / "assets" / "chart-report.pdf"
CLIENT_LIMIT = 25_000  # Claude Code refuses a tool result over this many tokens


@pytest.fixture(scope="session")
def manual(tmp_path_factory):
    return field_manual_pdf(tmp_path_factory.mktemp("book") / "manual.pdf")


def session_calls(app, calls):
    """Run ``calls(call)`` in one MCP session, where ``await call(tool, **arguments)`` gives
    (the answer as an object or the error's sentence, the result's text)."""

    async def run():
        async with streamable_http_client(mcp_url(app)) as (read, write, _):
            async with ClientSession(read, write) as session:
                await session.initialize()

                async def call(tool, **arguments):
                    result = await session.call_tool(tool, arguments)
                    text = result.content[0].text
                    return (text if result.isError else ast.literal_eval(text)), text

                return await calls(call)

    return asyncio.run(run())


def steps(app, path, **arguments) -> tuple[list[dict], list[str], dict]:
    """Read ``path`` over MCP from its first page, following each answer's budget.next to the end;
    then its outline. Returns the answers, the results' texts and the outline."""

    async def calls(call):
        answers, texts, step = [], [], {}
        while True:
            answer, text = await call("read_file", **inline(path, **arguments, **step))
            assert isinstance(answer, dict), answer
            answers.append(answer)
            texts.append(text)
            if answer["budget"]["next"] is None:
                break
            step = answer["budget"]["next"]
            assert len(answers) < 100
        outline, _ = await call("outline", **inline(path))
        return answers, texts, outline

    return session_calls(app, calls)


def test_the_tools_teach_paging_with_an_example_call(app):
    async def calls(call):
        async with streamable_http_client(mcp_url(app)) as (read, write, _):
            async with ClientSession(read, write) as session:
                await session.initialize()
                return {tool.name: tool for tool in (await session.list_tools()).tools}

    tools = asyncio.run(calls(None))
    assert {"outline", "find"} <= set(tools)
    assert {"max_tokens", "cursor"} <= set(tools["read_file"].inputSchema["properties"])
    assert set(tools["find"].inputSchema["properties"]) >= {
        "query",
        "regex",
        "page_start",
        "page_end",
        "context",
        "max_hits",
        "file_base64",
    }
    assert (
        "20,000 over MCP" in tools["read_file"].description
        and "page_start=13, max_tokens=20000)" in tools["read_file"].description
    )
    assert 'cursor="12:3457"' in tools["read_file"].description
    assert "read_file(file_base64=<the same file>" in tools["outline"].description
    assert 'find(file_base64=<the file>, file_name="report.pdf", query="net revenue")' in tools["find"].description


def test_300_pages_read_in_budgeted_steps_lose_and_repeat_no_page(app, manual):
    answers, texts, outline = steps(app, manual, max_tokens=4000)
    numbers = [page["number"] for answer in answers for page in answer["pages"]]
    assert numbers == list(range(1, BOOK_PAGES + 1)), "every page once, in order"
    assert len(answers) > BOOK_PAGES // 50  # the budget, not MAX_PAGES, made the steps
    by_page = {row["number"]: row for row in outline["pages"]}
    for answer in answers:
        budget = answer["budget"]
        assert budget["tokens"] == answer["tokens"]["openai"]["count"] == text_tokens(answer["text"]) <= 4000
        assert budget["pages"] == [page["number"] for page in answer["pages"]]
        assert [page["tokens"] for page in answer["pages"]] == [
            by_page[page["number"]]["text_only"] for page in answer["pages"]
        ]
        assert all("text" not in page and "blocks" not in page for page in answer["pages"]), (
            "an MCP answer holds the text once, in text"
        )
    first, last = answers[0]["budget"], answers[-1]["budget"]
    following = answers[1]["pages"][0]["number"]
    assert first["left"] == f"pages {following}-{BOOK_PAGES}" and first["next"] == {"page_start": following}
    assert (
        first["call"]
        == f'read_file(file_base64=<the same file>, file_name="manual.pdf", page_start={following}, max_tokens=4000)'
    )
    assert first["call"] in first["note"]
    assert last["next"] is None and last["left"] is None and "Nothing is left" in last["note"]


def test_the_mcp_default_budget_keeps_each_answer_under_the_clients_limit(app, manual):
    answers, texts, _ = steps(app, manual)
    assert [page["number"] for answer in answers for page in answer["pages"]] == list(range(1, BOOK_PAGES + 1))
    assert all(answer["budget"]["max_tokens"] == 20_000 and answer["budget"]["tokens"] <= 20_000 for answer in answers)
    assert all(text_tokens(text) < CLIENT_LIMIT for text in texts), "the whole tool result, not only the pages"


def test_the_outline_counts_headings_tables_and_figures(app, manual):
    async def calls(call):
        outline, _ = await call("outline", **inline(manual))
        cached = app.cache_files()
        again, _ = await call("outline", **inline(manual))
        written = {path for path, written in app.cache_files().items() if cached.get(path) != written}
        multimodal, _ = await call(
            "read_file", **inline(manual, page_start=98, page_end=104, multimodal=True, max_tokens=5000)
        )
        return outline, again, written, multimodal

    outline, again, written, multimodal = session_calls(app, calls)
    assert again == outline and not written, f"the second outline was read again: {sorted(written)[:5]}"
    assert (outline["kind"], outline["page_count"], len(outline["pages"])) == ("pdf", BOOK_PAGES, BOOK_PAGES)
    assert "text" not in str(outline["pages"][0]).replace("text_only", "")
    chapters = [number for number in range(1, BOOK_PAGES + 1) if number % CHAPTER_PAGES == 1] + [APPENDIX_PAGE]
    assert [(node["title"], node["page"]) for node in outline["headings"]] == [(chapter_title(n), n) for n in chapters]
    first = outline["headings"][0]["children"]
    assert [(node["title"], node["page"]) for node in first] == [
        (section_title(n), n) for n in range(1, CHAPTER_PAGES + 1)
    ]
    assert [row["number"] for row in outline["pages"] if "tables" in row] == list(TABLE_PAGES)
    assert outline["pages"][24]["tables"] == ["Part | Stock | Bin (4 rows)"] and "figures" not in outline["pages"][24]
    # Multimodal: the text and the page's image, 765 tokens for a letter page at 150 dpi; the answer adds up its pages.
    rows = {row["number"]: row for row in outline["pages"]}
    assert all(row["multimodal"] == row["text_only"] + 765 for row in outline["pages"])
    budget = multimodal["budget"]
    assert (
        budget["tokens"] == sum(rows[number]["multimodal"] for number in budget["pages"]) <= 5000
        and budget["pages"][0] == 98
    )
    assert budget["next"] == {"page_start": budget["pages"][-1] + 1}


def test_find_locates_words_and_patterns_on_known_pages(app, manual):
    async def calls(call):
        return [
            await call("find", **inline(manual, **arguments))
            for arguments in (
                {"query": "HELIOTROPE  kit"},
                {"query": "zarzuela", "context": 0},
                {"query": r"Section 12\.\d+ Page", "regex": True, "context": 0},
                {"query": "steps for page", "max_hits": 5},
                {"query": "heliotrope", "page_start": 100, "page_end": 200},
                {"query": "Section (3", "regex": True},
            )
        ]

    (words, _), (exact, _), (pattern, _), (capped, _), (ranged, _), (invalid, _) = session_calls(app, calls)
    assert [page["number"] for page in words["pages"]] == list(RARE_WORDS["heliotrope"]) and words["hit_count"] == 3
    hit = words["hits"][0]
    assert (
        hit["page"] == 17
        and hit["in"] == "text"
        and f"{hit['line']}:" in hit["context"]
        and "heliotrope kit" in hit["context"]
    )
    assert len(hit["context"].split("\n")) == 3  # the last line of the page, and the two before it
    assert [hit["page"] for hit in exact["hits"]] == list(RARE_WORDS["zarzuela"]) and all(
        "\n" not in hit["context"] for hit in exact["hits"]
    )
    assert [page["number"] for page in pattern["pages"]] == list(range(111, 121))
    assert all(hit["context"].startswith(f"{hit['line']}:## Section 12.") for hit in pattern["hits"])
    assert capped["capped"] and capped["hit_count"] == BOOK_PAGES and len(capped["hits"]) == 5
    assert capped["note"].startswith(
        f"Capped: the first 5 of {BOOK_PAGES} matching lines are shown, on {BOOK_PAGES} pages."
    )
    assert [page["number"] for page in ranged["pages"]] == [123] and ranged["searched"] == "pages 100-200"
    assert invalid.startswith("The regular expression 'Section (3' is not valid: missing )")


def test_a_budget_too_small_for_one_line_says_what_to_raise(app, manual):
    async def calls(call):
        refused, _ = await call("read_file", **inline(manual, page_start=25, page_end=25, max_tokens=5))
        needed = int(refused.rsplit("at least ", 1)[1].rstrip(".").replace(",", ""))
        answer, _ = await call("read_file", **inline(manual, page_start=25, page_end=25, max_tokens=needed))
        bad_cursor, _ = await call("read_file", **inline(manual, cursor="25:3", page_end=25))
        return refused, needed, answer, bad_cursor

    refused, needed, answer, bad_cursor = session_calls(app, calls)
    assert refused.startswith("max_tokens=5 is too small for manual.pdf: page 25 goes on with a line of")
    assert refused.endswith(f"Raise max_tokens to at least {needed}.")
    assert answer["budget"]["tokens"] <= needed and answer["budget"]["next"]["cursor"].startswith("25:")
    assert bad_cursor.startswith("The cursor 25:3 does not point to the start of a line of page 25 of manual.pdf")


def test_a_page_longer_than_the_budget_comes_in_pieces_that_rejoin_it(client, manual):
    whole = client.predict(file=handle_file(str(manual)), page_start=25, page_end=25, api_name="/read_file")["pages"][0]
    pieces, step = [], {"page_start": 25}
    while step is not None:
        answer = client.predict(
            file=handle_file(str(manual)), page_end=25, max_tokens=90, api_name="/read_file", **step
        )
        assert answer["budget"]["tokens"] <= 90 and [page["number"] for page in answer["pages"]] == [25]
        pieces.append(answer["pages"][0]["text"])
        step = answer["budget"]["next"]
    assert len(pieces) > 3 and "\n".join(pieces) == whole["text"], "cut at line breaks, nothing lost or repeated"
    rows = [line for piece in pieces for line in piece.split("\n") if line.startswith("|")]
    assert len(rows) == 6 and all(line.endswith("|") for line in rows), "no table row is cut"


def test_a_figures_description_is_never_cut(client):
    whole = client.predict(file=handle_file(str(REPORT_PDF)), page_start=2, page_end=2, api_name="/read_file")
    assert whole["pages"][0]["description"] == GENERIC_ANSWER
    limit = whole["tokens"]["openai"]["count"] - 10
    answers, step = [], {"page_start": 2}
    while step is not None:
        answers.append(
            client.predict(
                file=handle_file(str(REPORT_PDF)), page_end=2, max_tokens=limit, api_name="/read_file", **step
            )
        )
        step = answers[-1]["budget"]["next"]
    # The text fits without the block: it comes first, whole, and the block after it, alone.
    assert len(answers) == 2 and all(answer["budget"]["tokens"] <= limit for answer in answers)
    assert (
        answers[0]["text"] == f"[PAGE 2]\n{whole['pages'][0]['text']}" and answers[0]["pages"][0]["description"] is None
    )
    assert answers[1]["text"] == f"[PAGE 2]\n\n[PAGE 2 - VISUAL CONTENT]\n{GENERIC_ANSWER}"
    assert answers[1]["pages"][0]["description"] == GENERIC_ANSWER
    with pytest.raises(
        AppError,
        match=r"page 2's visual content \(its description or its image\) takes \d+ tokens .* never cut\. "
        r"Raise max_tokens to at least \d+\.",
    ):
        client.predict(
            file=handle_file(str(REPORT_PDF)),
            cursor=answers[0]["budget"]["next"]["cursor"],
            page_end=2,
            max_tokens=12,
            api_name="/read_file",
        )


def test_outline_through_gradio_client_matches_the_pages_read(client):
    outline = client.predict(file=handle_file(str(REPORT_PDF)), api_name="/outline")
    reading = client.predict(file=handle_file(str(REPORT_PDF)), api_name="/read_file")
    pictured = client.predict(file=handle_file(str(REPORT_PDF)), multimodal=True, api_name="/read_file")
    assert (outline["name"], outline["kind"], outline["page_count"]) == ("chart-report.pdf", "pdf", 4)
    assert [row["text_only"] for row in outline["pages"]] == [page["tokens"] for page in reading["pages"]]
    assert [row["multimodal"] for row in outline["pages"]] == [page["tokens"] for page in pictured["pages"]]
    assert (
        outline["tokens"]["multimodal"] == pictured["tokens"]["openai"]["count"]
    )  # message parts add up, page by page
    assert [node["title"] for node in outline["headings"]] == [
        "Quarterly Sales Report 2024",
        "Revenue by segment",
        "Units sold per region",
        "Conclusions",
    ]
    assert [row.get("figures") for row in outline["pages"][:2]] == [
        [{"kind": "drawing", "chart": "bar, 2 series"}],
        [{"kind": "drawing", "chart": "pie, 3 slices"}],
    ]
    assert outline["pages"][2]["tables"] == ["Region | Q1 | Q2 | Q3 | Q4 (2 rows)"]
    assert "Sales grew" not in str(outline)


def test_find_through_gradio_client_searches_text_and_descriptions(client):
    found = client.predict(file=handle_file(str(REPORT_PDF)), query="clustered bar", api_name="/find")
    assert [(hit["page"], hit["in"]) for hit in found["hits"]] == [(1, "visual content"), (2, "visual content")]
    found = client.predict(file=handle_file(str(REPORT_PDF)), query="small business", context=1, api_name="/find")
    assert [(hit["page"], hit["line"]) for hit in found["hits"]] == [(2, 3), (2, 11)] and found["pages"][0]["hits"] == 2
    assert "\n11:| Small business | 35 |\n" in found["hits"][1]["context"]
    assert found["hits"][0]["context"].startswith("2-\n3:Enterprise customers")
    with pytest.raises(AppError, match="The query is empty"):
        client.predict(file=handle_file(str(REPORT_PDF)), query=" ", api_name="/find")


def test_a_regular_expression_that_backtracks_without_end_is_stopped_with_a_sentence():
    search = Search(compile_query("(a|aa)+$", True), context=0, seconds=0.2)
    with pytest.raises(
        ReaderError, match=r"took over 0.2 s \(it had reached page 3\): it backtracks too much"
    ) as refused:
        search.hits("a" * 5000 + "!", where="page 3")
    assert refused.value.code == "INVALID_QUERY"  # unstopped, the match would outlast the suite


def test_a_text_files_page_cut_by_the_budget_keeps_its_line_numbers(tmp_path, services):
    reading = read_file(numbered_log(tmp_path / "app.log", 400), 1, 1, services=services)
    count = lambda part: text_tokens(part.as_text(line_numbers=True))  # what an answer with line_numbers returns
    first = fit(reading, 600, count=count)
    second = fit(reading, 600, first.next, count=count)
    lines = [line for part in (first, second) for line in part.reading.as_text(line_numbers=True).split("\n")[1:]]
    assert (
        first.tokens == count(first.reading) <= 600
        and second.reading.pages[0].line == first.reading.pages[0].text.count("\n") + 2
    )
    assert lines == [f"{number:>6}\u2192{log_line(number)}" for number in range(1, len(lines) + 1)], (
        "no line lost, repeated or renumbered"
    )
    assert second.next == Cursor(1, first.next.offset + len(second.reading.pages[0].text) + 1)


def test_the_outline_says_each_notice_once_with_its_code(tmp_path, services):
    """A misnamed file read in windows of two pages: every window says so; the outline, once. Each
    window is part of the file, which the outline, reading them all, is not; a range of it is."""
    path = tmp_path / "report.txt"
    path.write_bytes((ROOT / "assets/chart-report.pdf").read_bytes())

    def read(first, last, multimodal=False):
        return read_file(path, first, last, services=services, multimodal=multimodal)

    outline = outline_json(read, None, None, 2)
    assert outline["page_count"] == 4 and len(outline["warnings"]) == 1
    assert outline["notices"] == [{"code": "misnamed", "text": outline["warnings"][0], "page": None}]
    ranged = outline_json(read, 2, 4, 2)
    assert ranged["notices"][1:] == [
        {"code": "part_of_file", "text": "report.txt has 4 pages; pages 2-4 were read, not the others.", "page": None}
    ]


def test_matches_on_lines_near_each_other_are_shown_once_in_one_context():
    """grep -C's groups: hits whose lines overlap or touch are one hit, each line shown once, a line a match is on
    marked ":" wherever it stands; hits further apart stay apart."""
    text = "\n".join(
        f"{number} Acme Inc" if number in (3, 4, 6, 12) else f"{number} nothing" for number in range(1, 16)
    )
    hits = Search(compile_query("inc", False), context=1).hits(text)
    assert [hit.line for hit in hits] == [3, 4, 6, 12]  # each line where a match starts
    groups = merged(hits)
    assert [group.starts for group in groups] == [(3, 4, 6), (12,)]
    assert groups[0].context == "2-2 nothing\n3:3 Acme Inc\n4:4 Acme Inc\n5-5 nothing\n6:6 Acme Inc\n7-7 nothing"
    assert groups[1].context == "11-11 nothing\n12:12 Acme Inc\n13-13 nothing"
    apart = merged(Search(compile_query("inc", False), context=0).hits(text))
    assert [group.starts for group in apart] == [(3, 4), (6,), (12,)]  # 3 and 4 touch; 5 stands between 4 and 6


def test_find_counts_every_matching_line_and_shows_neighbours_once(shared_services):
    """The WARN report's table rows: "Inc" on rows next to each other, one hit with their lines, no line twice."""
    reading = read_file(CORPUS / "pdfplumber/ca-warn-report.pdf", services=shared_services, multimodal=False)
    found = find_json(held(reading), "Inc", False, 1, 4, 1, 200, 50)
    assert not found["capped"]
    assert (
        found["hit_count"]
        == sum(page["hits"] for page in found["pages"])
        == sum(len(hit["lines"]) for hit in found["hits"])
    )
    assert any(len(hit["lines"]) > 1 for hit in found["hits"]) and len(found["hits"]) < found["hit_count"]
    for hit in found["hits"]:
        numbers = [int(re.match(r"\d+", line).group()) for line in hit["context"].split("\n")]
        assert numbers == list(range(numbers[0], numbers[-1] + 1))  # each line once, in order
        assert hit["line"] == hit["lines"][0] and all(f"\n{line}:" in f"\n{hit['context']}" for line in hit["lines"])
    shown = [(hit["page"], line) for hit in found["hits"] for line in hit["context"].split("\n")]
    assert len(shown) == len(set(shown))
