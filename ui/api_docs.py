"""What the named endpoints' docstrings (and so their MCP tools) say of each parameter and of
what they return, where a line of it would not fit in the code: Gradio reads a parameter's
description from one line of the docstring and joins the Returns lines with commas, so the long
ones are written here and formatted into the docstrings (``ui.api.documented``)."""

from readers.settings import MAX_HOTWORDS_CHARS

FILE_ARGS = {  # every endpoint's file parameters, as its docstring (and so the MCP tool) describes them
    "file": (
        "The file as a public http(s) URL (or, through gradio_client, an "
        "uploaded file). Leave empty when sending file_base64."
    ),
    "file_base64": (
        "The file's bytes in base64 (a data: URL prefix and line breaks are allowed), for a file on your own machine; "
        "at most the server's MAX_FILE_MB (25 MB by default) once decoded. Use instead of file."
    ),
    "file_name": (
        "The file's name with its extension when sending file_base64, e.g. "
        "report.pdf: it names the file in the answer and hints at its type."
    ),
    "url": (
        "The file's http(s) URL for the server to fetch and read, e.g. https://example.com/report.pdf: "
        "public addresses only (the server's URL_ALLOW may name others), at most MAX_FILE_MB; the answer "
        "names the file by its URL. Use instead of file and file_base64."
    ),
}
HOTWORDS_ARG = (
    "For audio: names and terms the recording uses, spelled as they should "
    'be written, e.g. "Kubernetes, Zelensky, Anthropic" '
    f"(at most {MAX_HOTWORDS_CHARS} characters); they steer the transcription's "
    "spelling. Empty uses the server's WHISPER_HOTWORDS."
)

ENDPOINT_ARGS = {  # by endpoint: what its docstring names as {endpoint[parameter]}
    "read_file": {
        "page_end": (
            "Last page to read, inclusive; empty or 0 reads to the last. At most the server's MAX_PAGES "
            "(50 by default) are read at once; a warning says so."
        ),
        "describe": (
            'A question about the visual content of each page, e.g. "What are the exact percentages in '
            'the pie chart?"; empty describes only the pages with figures.'
        ),
        "multimodal": (
            "true for what a vision-capable model receives (each page's text plus its image); false (the "
            "default) for what a text-only model receives (text plus visual descriptions)."
        ),
        "document": (
            "true to add document_messages: the pages read as one PDF, the way Claude and OpenAI take a "
            "PDF as itself (for PDFs, and Office files and web pages through the PDF they are rendered "
            "to); the PDF carries no descriptions."
        ),
        "line_numbers": (
            "true to number each line of a text file (code, logs) in text as in the file, so a model can "
            "cite it by line."
        ),
        "max_tokens": (
            "The most tokens (OpenAI's count of text and images, as tokens reports it) the answer's pages"
            " may hold, e.g. 8000; empty or 0 takes 20,000 over MCP and no limit through gradio_client. "
            "Whole pages that fit come back; too small for the next line or visual block is an error "
            "saying what to raise it to."
        ),
        "cursor": (
            'Where to go on inside a page, exactly as an answer\'s budget.next gave it (e.g. "12:3457": '
            "page 12 from character 3457); it replaces page_start. Empty reads from page_start."
        ),
        "provider": (
            'The provider whose message parts messages and document_messages are in: "openai" (the '
            'default), "anthropic" or "gemini" (the parts of a Gemini contents entry).'
        ),
        "chunk_tokens": (
            "To add chunks, what a retriever indexes, e.g. 512: the pages read cut into chunks of at most"
            " this many o200k_base tokens, each with its heading path, pages and citation; tables cut "
            "only between rows, each figure a chunk of its own. Empty or 0 adds none."
        ),
        "files": (
            "Several files read together instead of file (uploads through gradio_client, or public "
            "http(s) URLs over MCP): the answer holds each file's answer in files (or its error), then text,"
            " tokens, messages and document_messages of them all, each file's pages after its [FILE: name]."
        ),
        "returns": (
            "name, kind, page_count; pages (number, tokens: the page's own count, text, tables, "
            "description, description_source, error, section, line, figures, furniture: what a PDF page "
            "shows round its text and the text leaves out, such as page numbers, running headers, "
            "download stamps, or a Word page's header and footer; blocks: each heading, paragraph, table "
            "and chart with its characters in text, start and end, and its box on the page); warnings; "
            "usage (vision calls made, saved, cached); text (exactly what a "
            "text-only model receives); document_messages when asked; tokens of that payload (openai "
            "exact, anthropic and gemini estimates); and, in multimodal mode through gradio_client, messages "
            "(the provider's content parts with base64 PNGs); with max_tokens or a cursor (and always over MCP), "
            "budget: max_tokens, tokens, pages, left, next (the page_start or cursor to go on with, null "
            "when nothing is left), call (the exact call that goes on) and note; with chunk_tokens, "
            "chunks (number, kind: text, table, figure or transcript, text: exactly what is embedded, "
            "tokens, pages, headings, section, citation, lines, start, end, caption, boxes, context, "
            "overlap). Over MCP the images are left out (get a page's image with render_page), and so are"
            " the pages' text, tables and description, which text holds, and their empty fields."
        ),
    },
    "describe": {
        "question": (
            "What to find out about the page's visuals, e.g. \"What are the exact percentages in the pie "
            "chart?\"; empty describes the page's figures (a page without figures needs a question)."
        )
    },
    "outline": {
        "returns": (
            "name, kind, page_count; pages (number, text_only and multimodal: its tokens, and when there "
            "are any: tables (header and rows), figures (kind, caption, chart), section, line, error); "
            "headings (title, page, children); tokens (the pages' sums); note; warnings. A recording has "
            "no pages: its duration, language and transcript's tokens."
        )
    },
    "find": {
        "query": (
            "The words to find (case and the spaces between them do not matter, and they may run across a"
            " line break), or with regex true a Python regular expression, matched as written ((?i) "
            "ignores case; ^ and $ match at each line)."
        ),
        "max_hits": (
            "The most matching lines to return (1 to 200; 20 by default); when there are more, capped is "
            "true and note says how many."
        ),
        "returns": (
            "name, kind, page_count, query, regex, searched (the pages searched); pages (number, hits, "
            "tokens); hits (page, section, line: in the page's text, or for a text file in the file; lines: "
            'where its matches start, matches near each other being one hit; in: "text" or "visual content"; '
            'context: the lines as grep -n -C prints them, each once, "9:" a matching line, "8-" a line round '
            "it); hit_count (matching lines); capped; note; warnings."
        ),
    },
}
