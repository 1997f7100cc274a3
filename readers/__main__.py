"""Command line: ``python -m readers FILE [--pages 3-5] [--describe Q] [--multimodal] [--format F]``.

Prints what a model receives from FILE. On a ReaderError it prints one line,
``error: CODE: message``, and exits with status 2.
"""

from __future__ import annotations

import argparse
import json
import signal
import sys

from . import ReaderError, Settings, read_file
from .serialize import as_json


def page_range(value: str) -> tuple[int, int]:
    try:
        first, _, last = value.partition("-")
        start = int(first)
        end = int(last) if last else start
    except ValueError:
        raise argparse.ArgumentTypeError(f"{value!r} is not a page range like 3 or 3-5") from None
    return start, end


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m readers", description="Show what a language model receives from a file.")
    parser.add_argument("file")
    parser.add_argument("--pages", type=page_range, help="a page or range, e.g. 3 or 3-5 (1-based)")
    parser.add_argument("--describe", help="ask this question about each page's visual content")
    parser.add_argument("--multimodal", action="store_true", default=None, help="include page images (for a vision-capable model)")
    parser.add_argument("--format", choices=("text", "json", "openai", "anthropic"), default="text")
    args = parser.parse_args(argv)
    start, end = args.pages or (None, None)
    try:
        settings = Settings.from_env()
    except ValueError as error:
        print(f"error: settings: {error}", file=sys.stderr)
        return 2
    try:
        reading = read_file(args.file, page_start=start, page_end=end, describe=args.describe, multimodal=args.multimodal, settings=settings)
    except ReaderError as error:
        print(f"error: {error.code}: {error.message}", file=sys.stderr)
        return 2
    for warning in reading.warnings:
        print(f"warning: {warning}", file=sys.stderr)
    if args.format == "text":
        print(reading.as_text())
    elif args.format == "json":
        print(json.dumps(as_json(reading), ensure_ascii=False, indent=2))
    else:
        print(json.dumps(reading.as_messages(args.format), ensure_ascii=False, indent=2))
    return 0


if __name__ == "__main__":
    signal.signal(signal.SIGPIPE, signal.SIG_DFL)  # `... | head` ends quietly, as shell tools do
    sys.exit(main())
