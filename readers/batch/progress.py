"""What a batch run shows while it goes and says at the end: ``Tally`` counts, ``Progress`` shows
(a bar on a terminal, a line a minute in a log)."""

from __future__ import annotations

import sys
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import TextIO

from tqdm import tqdm

from .outputs import counted
from .records import FAILURES_LISTED

BAR_INTERVAL = 0.1  # seconds between the progress bar's redraws on a terminal (tqdm's default)
LOG_INTERVAL = 60  # seconds between progress lines when standard error is a log file: a line a minute


@dataclass
class Tally:
    """What this run did, for the progress and the summary."""

    started: float = field(default_factory=time.monotonic)
    read: int = 0
    pages: int = 0
    failed: list[tuple[str, str]] = field(default_factory=list)
    page_errors: int = 0
    skipped: int = 0
    copies: int = 0
    retried: dict[str, str] = field(default_factory=dict)  # file -> why its last lost try was lost
    retries: int = 0

    def count(self, records: list[dict]) -> str | None:
        """Count one file's records; the reason when the file could not be read."""
        first = records[0]
        if first["kind"] is None:
            reason = f"{first['error']['code'] or 'ERROR'}: {first['error']['message']}"
            self.failed.append((first["file"], reason))
            return reason
        self.read += 1
        self.pages += first["pages_read"]
        self.page_errors += sum(bool(record["error"]) for record in records)
        return None

    def retry(self, file: str, reason: str) -> None:
        self.retried[file] = reason
        self.retries += 1

    @property
    def done(self) -> int:
        return self.read + len(self.failed)

    @property
    def seconds(self) -> float:
        return time.monotonic() - self.started

    def status(self) -> str:
        """Pages, their rate, errors (files failed and pages with an error) and retries so far."""
        rate = self.pages / self.seconds if self.seconds else 0.0
        return (
            f"{counted(self.pages, 'page')} ({rate:.1f}/s), "
            f"{counted(len(self.failed) + self.page_errors, 'error')}, {self.retries:,} retried"
        )

    def summary(self, out: Path, stopped: bool) -> str:
        rate = f", {self.pages / self.seconds:.1f} pages/s" if self.pages else ""
        lines = [
            f"{'Stopped' if stopped else 'Done'} in {clock(self.seconds)}: "
            f"{counted(self.read, 'file')} read ({counted(self.pages, 'page')}{rate}), "
            f"{len(self.failed):,} failed; records in {out}."
        ]
        if self.skipped or self.copies:
            lines.append(
                f"Skipped: {counted(self.skipped, 'file')} already in {out.name}, "
                f"{counted(self.copies, 'copy', 'copies')} of other files (same content)."
            )
        if self.page_errors:
            lines.append(
                f"{counted(self.page_errors, 'page')} {'has' if self.page_errors == 1 else 'have'} "
                "an error in the record; running again reads those files again."
            )
        lines += _listed(
            f"Retried: {counted(len(self.retried), 'file')} whose try was lost with its worker or node "
            f"({counted(self.retries, 'retry', 'retries')}), each written once:",
            list(self.retried.items()),
        )
        lines += _listed("Failed:", self.failed)
        if stopped:
            lines.append("Run the same command again to go on.")
        return "\n".join(lines)


def _listed(heading: str, items: list[tuple[str, str]]) -> list[str]:
    """A heading and the first ``FAILURES_LISTED`` (file, reason) lines, or nothing when there are none."""
    if not items:
        return []
    lines = [heading, *(f"  {file}: {reason}" for file, reason in items[:FAILURES_LISTED])]
    if len(items) > FAILURES_LISTED:
        lines.append(f"  ... and {len(items) - FAILURES_LISTED:,} more.")
    return lines


def clock(seconds: float) -> str:
    minutes, seconds = divmod(round(seconds), 60)
    return f"{minutes // 60}:{minutes % 60:02d}:{seconds:02d}" if minutes >= 60 else f"{minutes}:{seconds:02d}"


class Progress:
    """The run's progress on ``stream``: files done of the total, pages and their rate, errors,
    retries and the time left. On a terminal, a bar redrawn as files finish; elsewhere (a log
    file, a CI job) one line at the start and then one every ``every`` seconds, files finishing
    or not. ``write`` puts a line (a failure, a retry) above the bar."""

    def __init__(self, total: int, name: str, tally: Tally, stream: TextIO = sys.stderr, every: float = LOG_INTERVAL):
        self.total, self.name, self.tally, self.stream = total, name, tally, stream
        self._stop = threading.Event()
        self.bar = None
        if stream.isatty():
            self.bar = tqdm(
                total=total,
                unit="file",
                desc=f"Reading ({name})",
                file=stream,
                dynamic_ncols=True,
                mininterval=BAR_INTERVAL,
            )
            self.bar.set_postfix_str(tally.status())
        else:
            self._log()
            self._thread = threading.Thread(target=self._every, args=(every,), daemon=True)
            self._thread.start()

    def _every(self, seconds: float) -> None:
        while not self._stop.wait(seconds):
            self._log()

    def line(self) -> str:
        done, total = self.tally.done, self.total
        text = f"Reading ({self.name}): {done:,} of {counted(total, 'file')}"
        text += f" ({done / total:.0%}), {self.tally.status()}" if total else f", {self.tally.status()}"
        if done and done < total:
            text += f", {clock(self.tally.seconds / done * (total - done))} left"
        return text

    def _log(self) -> None:
        print(self.line(), file=self.stream, flush=True)

    def skip(self) -> None:
        """A file off the total: already read by an earlier run, or a copy of another."""
        self.total -= 1
        if self.bar:
            self.bar.total = self.total
            self.bar.refresh()

    def advance(self) -> None:
        """One more file done (``tally`` counted it)."""
        if self.bar:
            self.bar.set_postfix_str(self.tally.status(), refresh=False)
            self.bar.update(1)

    def write(self, line: str) -> None:
        tqdm.write(line, file=self.stream)

    def close(self) -> None:
        if self.bar:
            self.bar.close()
        else:
            self._stop.set()
            self._thread.join()
