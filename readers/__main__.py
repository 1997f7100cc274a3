"""Command line: ``python -m readers FILE [--pages 3-5] [--describe Q] [--multimodal] [--format F]
[--citations] [--document] [--line-numbers] [--chunks 512 [--overlap 64]]``.

Prints what a model receives from FILE; with ``--chunks``, what a retriever indexes instead: one
JSON object per chunk (JSON Lines, ``Reading.chunks``). On a ReaderError it prints one line,
``error: CODE: message``, and exits with status 2.

``python -m readers batch PATH... --out pages.jsonl [--engine local|ray] ...`` reads a collection
(``readers/batch/``); this module only parses its arguments.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import signal
import sys

from . import ReaderError, ReadOptions, Settings, read_file
from .payload.messages import PROVIDERS
from .payload.serialize import as_json


def page_range(value: str) -> tuple[int, int]:
    try:
        first, _, last = value.partition("-")
        start = int(first)
        end = int(last) if last else start
    except ValueError:
        raise argparse.ArgumentTypeError(f"{value!r} is not a page range like 3 or 3-5") from None
    return start, end


def positive(value: str) -> int:
    if not value.isdigit() or int(value) < 1:
        raise argparse.ArgumentTypeError(f"{value!r} is not a whole number from 1")
    return int(value)


def whole(value: str) -> int:
    if not value.isdigit():
        raise argparse.ArgumentTypeError(f"{value!r} is not a whole number")
    return int(value)


def add_reading_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--pages", type=page_range, help="a page or range, e.g. 3 or 3-5 (1-based)")
    parser.add_argument("--describe", help="ask this question about each page's visual content")
    parser.add_argument(
        "--multimodal", action="store_true", default=None, help="include page images (for a vision-capable model)"
    )


def add_chunk_options(parser: argparse.ArgumentParser, what: str) -> None:
    parser.add_argument(
        "--chunks", type=whole, metavar="TOKENS", help=f"{what}: chunks of at most TOKENS o200k_base tokens, e.g. 512"
    )
    parser.add_argument(
        "--overlap", type=whole, metavar="TOKENS", help="with --chunks: repeat up to TOKENS of the previous chunk's end"
    )


def chunk_sizes(parser: argparse.ArgumentParser, args: argparse.Namespace) -> tuple[int, int]:
    """``--chunks`` and ``--overlap`` as (max tokens, overlap tokens), (0, 0) without them; sizes that
    cannot work end the command with the reason."""
    if args.overlap is not None and args.chunks is None:
        parser.error("--overlap goes with --chunks")
    if args.chunks is None:
        return 0, 0
    from .payload.chunks import check_sizes  # loads the tokenizer: only when chunks are asked for

    try:
        check_sizes(args.chunks, args.overlap or 0)
    except ReaderError as error:
        parser.error(error.message)
    return args.chunks, args.overlap or 0


def load_settings() -> Settings | None:
    try:
        return Settings.from_env()
    except ValueError as error:
        print(f"error: settings: {error}", file=sys.stderr)
        return None


def batch_main(argv: list[str], prog: str = "python -m readers") -> int:
    parser = argparse.ArgumentParser(
        prog=f"{prog} batch",
        description="Read every file under PATH... (folders recursively) into one record per page: "
        "JSON Lines, or Parquet "
        "when --out ends in .parquet. Run it again on the same output to resume.",
    )
    parser.add_argument("paths", nargs="+", metavar="PATH", help="files and folders to read")
    parser.add_argument("--out", required=True, help="the output file: .jsonl, or .parquet")
    parser.add_argument(
        "--engine", choices=("local", "ray"), default="local", help="this machine's cores (default), or Ray"
    )
    parser.add_argument(
        "--ray-address", help="the Ray cluster to use with --engine ray, e.g. auto (default: start Ray here)"
    )
    parser.add_argument(
        "--workers", type=positive, help="files read at once (default: the cores, or the Ray cluster's CPUs)"
    )
    add_reading_options(parser)
    add_chunk_options(parser, "one record per chunk instead of per page")
    args = parser.parse_args(argv)
    chunk_tokens, overlap_tokens = chunk_sizes(parser, args)
    if args.ray_address and args.engine != "ray":
        parser.error("--ray-address needs --engine ray")
    start, end = args.pages or (None, None)
    if start is not None and not 1 <= start <= end:
        parser.error(f"--pages {start}-{end} is not a range of pages from 1")
    settings = load_settings()
    if settings is None:
        return 2
    from .batch.engines import LocalEngine, RayEngine  # the batch extras (tqdm, Ray) are imported only for a batch
    from .batch.records import INSTALL_HINT, BatchError, Request

    try:
        from .batch.run import run
    except ImportError as error:  # tqdm, the progress bar
        print(f"error: the batch command needs {error.name}: {INSTALL_HINT}.", file=sys.stderr)
        return 2

    engine = RayEngine(args.ray_address, args.workers) if args.engine == "ray" else LocalEngine(args.workers)
    try:
        return run(
            args.paths,
            args.out,
            engine=engine,
            settings=settings,
            request=Request(ReadOptions(start, end, args.describe, args.multimodal), chunk_tokens, overlap_tokens),
        )
    except (BatchError, OSError) as error:  # OSError: the output cannot be written (a read-only folder, a full disk)
        print(f"error: {error}", file=sys.stderr)
        return 2


def main(argv: list[str] | None = None, prog: str = "python -m readers", commands: str | None = None) -> int:
    """The command line; ``prog`` is how its help names it (``readlens`` for the installed command), and
    ``commands`` the lines its help ends with, naming the other commands (by default ``batch``)."""
    argv = sys.argv[1:] if argv is None else argv
    if argv[:1] == ["batch"]:
        return batch_main(argv[1:], prog)
    parser = argparse.ArgumentParser(
        prog=prog,
        description="Show what a language model receives from a file or a web address: its text, with tables\n"
        "and a description of each page's visuals, or the message content with each page's image.",
        epilog=commands or f"Collections: {prog} batch PATH... --out pages.jsonl (see {prog} batch --help).",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument(
        "file",
        metavar="FILE|URL",
        help="a file to read (documents, spreadsheets, web pages, e-books, e-mail, archives, images, audio, text), "
        "or an http:// or https:// address, fetched first (public addresses only unless URL_ALLOW names it)",
    )
    add_reading_options(parser)
    parser.add_argument(
        "--format",
        choices=("text", "plain", "json", *PROVIDERS),
        default="text",
        help="text: what a text-only model receives, its pages' text in Markdown (the default); plain: the same "
        "as plain text, tables in columns; json: the whole reading; openai, anthropic, gemini: that provider's "
        "message content, with the page images in multimodal mode",
    )
    parser.add_argument(
        "--citations",
        action="store_true",
        help="with --format text or plain: a citation after each page's text and visual content, "
        "*(Source: report.pdf, p. 12)*",
    )
    parser.add_argument(
        "--document",
        action="store_true",
        help=(
            "send the pages as the PDF they come from (a PDF, or a document "
            "rendered to PDF); with --format openai, anthropic or gemini"
        ),
    )
    parser.add_argument(
        "--line-numbers", action="store_true", help="number each line of a text file as in the file; with --format text"
    )
    parser.add_argument(
        "--images",
        action="store_true",
        default=None,
        help=(
            "make page images even in text-only mode (a deck or a workbook "
            "is then rendered by LibreOffice); shown with --format json"
        ),
    )
    add_chunk_options(parser, "print what a retriever indexes, one JSON object per chunk (JSON Lines)")
    args = parser.parse_args(argv)
    chunk_tokens, overlap_tokens = chunk_sizes(parser, args)
    if chunk_tokens and (args.format != "text" or args.document or args.line_numbers):
        parser.error("--chunks prints chunks as JSON Lines: it goes without --format, --document and --line-numbers")
    if args.document and args.format not in PROVIDERS:
        parser.error("--document goes with --format openai, anthropic or gemini")
    if args.document and args.describe:
        parser.error("--describe does not go with --document: the PDF is sent as it is, without descriptions")
    if args.line_numbers and args.format != "text":
        parser.error("--line-numbers goes with --format text")
    if args.citations and (args.format not in ("text", "plain") or chunk_tokens):
        parser.error("--citations goes with --format text or plain (each chunk carries its own citation)")
    start, end = args.pages or (None, None)
    settings = load_settings()
    if settings is None:
        return 2
    multimodal = (
        True if args.document else args.multimodal
    )  # a PDF sent as itself carries no descriptions: none are made
    try:
        options = ReadOptions(start, end, args.describe, multimodal, args.images)
        reading = read_file(args.file, options=options, settings=settings)
        parts = reading.as_messages(args.format, document=args.document) if args.format in PROVIDERS else None
        chunks = reading.chunks(chunk_tokens, overlap_tokens) if chunk_tokens else None
    except ReaderError as error:
        print(f"error: {error.code}: {error.message}", file=sys.stderr)
        return 2
    for warning in reading.warnings:
        print(f"warning: {warning}", file=sys.stderr)
    if chunks is not None:
        for chunk in chunks:
            print(json.dumps(dataclasses.asdict(chunk), ensure_ascii=False))
    elif args.format in ("text", "plain"):
        print(reading.as_text(args.line_numbers, plain=args.format == "plain", citations=args.citations))
    elif args.format == "json":
        print(json.dumps(as_json(reading), ensure_ascii=False, indent=2))
    else:
        print(json.dumps(parts, ensure_ascii=False, indent=2))
    return 0


if __name__ == "__main__":
    signal.signal(signal.SIGPIPE, signal.SIG_DFL)  # `... | head` ends quietly, as shell tools do
    sys.exit(main())
