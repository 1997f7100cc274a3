"""Every file in ``tests/corpus`` and ``assets`` read by the readers on the path, written down, and two
such snapshots compared: what a change to the readers changed in their output.

    python bench/outputs.py snapshot OUT [--only SUBSTRING]   # run with PYTHONPATH at the code to read with
    python bench/outputs.py diff BEFORE AFTER                 # every difference, file by file
    python -m bench.outputs boxes SNAPSHOT                    # its PDFs' text blocks scored by testkit.block_boxes

Each file is read three ways: ``text`` (text-only, as the API and the command line read it), ``multimodal``
(page images for a vision model) and ``app`` (text-only with page images, as the app reads it). For each, the
snapshot keeps ``as_json`` (page images as their SHA-256: LibreOffice's and Chromium's renders differ from run to
run), ``as_text()``, the text parts of ``as_messages("anthropic")`` and ``chunks(512)``; a ``ReaderError`` as its
code and message. The run has a private cache its reads share (so LibreOffice starts once and converts each file
once): a file's entries are its content's, so one read before it stands in for none of its reads, but a picture
two files hold is described once (the second says "cached"), alike in every run of the same files.

The script imports nothing of this repository but ``readers``' public names, so the code before a change (a
``git archive`` of it on ``PYTHONPATH``) is read by the same script as the code after it.
"""

from __future__ import annotations

import argparse
import dataclasses
import hashlib
import json
import os
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
FOLDERS = ("tests/corpus", "assets")
SKIPPED = ("SOURCES.md", "SHA256SUMS")
MODES = {
    "text": {"multimodal": False},
    "multimodal": {"multimodal": True},
    "app": {"multimodal": False, "images": True},
}


def corpus() -> list[Path]:
    return sorted(
        path for folder in FOLDERS for path in (ROOT / folder).rglob("*") if path.is_file() and path.name not in SKIPPED
    )


def _hashed(data: dict) -> dict:
    for page in data.get("pages", []):
        if page.get("image"):
            page["image"] = hashlib.sha256(page["image"].encode()).hexdigest()[:16]
    data.get("usage", {}).pop("seconds", None)
    return data


def _read(path: Path, mode: dict, services) -> dict:
    from readers import ReaderError, read_file
    from readers.payload.serialize import as_json

    try:
        reading = read_file(path, services=services, **mode)
    except ReaderError as error:
        return {"error": {"code": error.code, "message": error.message}}
    out = {"json": _hashed(as_json(reading)), "as_text": reading.as_text()}
    out["messages"] = [part.get("text") for part in reading.as_messages("anthropic") if part.get("type") == "text"]
    try:
        out["chunks"] = [dataclasses.asdict(chunk) for chunk in reading.chunks(512)]
    except ReaderError as error:
        out["chunks"] = {"code": error.code, "message": error.message}
    return out


def _services(cache: Path):
    from readers import Services, Settings

    settings = Settings.from_env({"READLENS_CACHE_DIR": str(cache), "VISION_PROVIDER": "ocr"}, env_file="/dev/null")
    return Services(settings)


def snapshot(out: Path, only: str | None) -> None:
    out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix="outputs-cache-", ignore_cleanup_errors=True) as cache:
        services = _services(Path(cache))
        for path in corpus():
            name = str(path.relative_to(ROOT))
            if only and only not in name:
                continue
            target = out / (name.replace("/", "__") + ".json")
            if target.exists():
                continue
            started = time.monotonic()
            result = {mode: _read(path, options, services) for mode, options in MODES.items()}
            target.write_text(json.dumps(result, ensure_ascii=False, indent=1, default=str), encoding="utf-8")
            print(f"{time.monotonic() - started:6.1f} s  {name}", flush=True)


def _walk(before, after, where: str, found: list[str]) -> None:
    if isinstance(before, dict) and isinstance(after, dict):
        for key in dict.fromkeys([*before, *after]):
            if key not in after:
                found.append(f"{where}.{key}: gone")
            elif key not in before:
                found.append(f"{where}.{key}: new: {json.dumps(after[key], ensure_ascii=False)[:300]}")
            else:
                _walk(before[key], after[key], f"{where}.{key}", found)
    elif isinstance(before, list) and isinstance(after, list) and len(before) == len(after):
        for index, (one, other) in enumerate(zip(before, after)):
            _walk(one, other, f"{where}[{index}]", found)
    elif before != after:
        shown = [json.dumps(value, ensure_ascii=False) for value in (before, after)]
        found.append(f"{where}: {shown[0][:400]}  ->  {shown[1][:400]}")


def diff(before: Path, after: Path, ignore: list[str]) -> int:
    changed = 0
    for old in sorted(before.glob("*.json")):
        new = after / old.name
        if not new.exists():
            print(f"## {old.stem}: not in {after}")
            continue
        found: list[str] = []
        _walk(json.loads(old.read_text()), json.loads(new.read_text()), "", found)
        found = [line for line in found if not any(part in line.split(":", 1)[0] for part in ignore)]
        if found:
            changed += 1
            print(f"## {old.stem}")
            print("\n".join(found))
    print(f"{changed} files differ")
    return 0


def _snapshot_blocks(page: dict) -> list:
    """A snapshot's page's text blocks as ``Block``s: a block's own text, or, as the readers before issue 51
    gave them, its characters (start, end) in the page's text."""
    from readers import Block, BlockKind

    found = []
    for block in page.get("blocks", []):
        text = block["text"] if "text" in block else page["text"][block["start"] : block["end"]]
        kind = {"text": BlockKind.PARAGRAPH}.get(block["kind"], block["kind"])
        found.append(Block(BlockKind(kind), text, tuple(block["box"]) if block.get("box") else None))
    return found


def boxes(snapshot: Path) -> int:
    """Each PDF's text blocks in ``snapshot`` (text-only mode) scored as ``bench blocks`` scores them."""
    from testkit.block_boxes import TEXT_KINDS, Score, block_score, page_words

    total = Score()
    for path in corpus():
        if path.suffix.lower() != ".pdf":
            continue
        kept = snapshot / (str(path.relative_to(ROOT)).replace("/", "__") + ".json")
        data = json.loads(kept.read_text()).get("text", {}).get("json") if kept.exists() else None
        if not data:
            continue
        score = Score()
        for page in data["pages"]:
            placed = [block for block in _snapshot_blocks(page) if block.kind in TEXT_KINDS and block.box]
            words = page_words(path, page["number"]) if placed else []
            for block in placed:
                score.add(block_score(block, words))
        total.add(score)
        print(
            f"{path.relative_to(ROOT)}: precision {score.precision:.3f}, recall {score.recall:.3f}, {score.words} words"
        )
    print(f"all: precision {total.precision:.3f}, recall {total.recall:.3f}, {total.words} words")
    return 0


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    commands = parser.add_subparsers(dest="command", required=True)
    taking = commands.add_parser("snapshot")
    taking.add_argument("out", type=Path)
    taking.add_argument("--only")
    comparing = commands.add_parser("diff")
    comparing.add_argument("before", type=Path)
    comparing.add_argument("after", type=Path)
    comparing.add_argument("--ignore", action="append", default=[], help="leave out paths holding this")
    scoring = commands.add_parser("boxes")
    scoring.add_argument("snapshot", type=Path)
    arguments = parser.parse_args(argv)
    os.environ.setdefault("GRADIO_ANALYTICS_ENABLED", "False")
    if arguments.command == "snapshot":
        snapshot(arguments.out, arguments.only)
        return 0
    if arguments.command == "boxes":
        return boxes(arguments.snapshot)
    return diff(arguments.before, arguments.after, arguments.ignore)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
