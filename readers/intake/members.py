"""Files inside a container — a ZIP archive's members, an e-mail's attachments — read through
``read_file``'s own dispatch, each as its own section of the container's reading.

Limits, checked before anything is inflated, for the whole reading (nested containers share
them): at most ``MAX_MEMBERS`` files and ``MAX_INFLATED_BYTES`` inflated in all, and containers at
most ``MAX_NESTING`` deep (an archive in an archive in an archive; a fourth is refused). Past
them: ``FILE_TOO_LARGE``. Each member is written to a private temporary folder under a neutral
name (its name is never a path on disk) and read there; a member that fails is one page saying
why, and the others are still read.
"""

from __future__ import annotations

import tempfile
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from pathlib import Path
from typing import BinaryIO, Callable, Iterable

from ..errors import ReaderError, last_resort
from ..models import Page
from .names import label, safe_suffix
from .package import MAX_INFLATED_BYTES

MAX_MEMBERS = 100
MAX_NESTING = 3


@dataclass
class _Budget:
    members: int = MAX_MEMBERS
    inflated: int = MAX_INFLATED_BYTES


_budget: ContextVar[_Budget | None] = ContextVar("readlens_member_budget", default=None)
_depth: ContextVar[int] = ContextVar("readlens_container_depth", default=0)


@contextmanager
def container(job):
    """Read inside this block a container's members: refuses one nested too deep; the outermost
    container starts the budget its nested ones share."""
    depth = _depth.get() + 1
    if depth > MAX_NESTING:
        raise ReaderError("FILE_TOO_LARGE", f"{job.name} is nested {depth} containers deep (archives or e-mails inside each other); "
                                            f"at most {MAX_NESTING} levels are read.")
    depth_token = _depth.set(depth)
    budget_token = _budget.set(_Budget()) if _budget.get() is None else None
    try:
        yield
    finally:
        _depth.reset(depth_token)
        if budget_token is not None:
            _budget.reset(budget_token)


def reserve(job, sizes: list[int]) -> None:
    """Take members of these inflated ``sizes`` from the reading's budget, or refuse the container."""
    budget = _budget.get()
    if len(sizes) > budget.members:
        raise ReaderError("FILE_TOO_LARGE", f"{job.name} holds {len(sizes):,} files; at most {MAX_MEMBERS} files are read from one "
                                            f"archive or e-mail, nested ones included ({budget.members} left).")
    if sum(sizes) > budget.inflated:
        raise ReaderError("FILE_TOO_LARGE", f"{job.name} inflates to {sum(sizes) / 1048576:,.0f} MB; at most {MAX_INFLATED_BYTES // 1048576} MB "
                                            f"are read from one archive or e-mail, nested ones included. It may be a zip bomb.")
    budget.members -= len(sizes)
    budget.inflated -= sum(sizes)


def _pages_of(reading) -> list[Page]:
    if reading.transcript is not None:  # audio: its transcript is the member's one page
        t = reading.transcript
        return [Page(number=1, text=f"Transcript ({t.summary}):\n{t.text.strip()}")]
    return reading.pages


def read_members(job, members: Iterable[tuple[str, Callable[[BinaryIO], None]]]) -> list[Page]:
    """Read each ``(name, write)`` member — ``write`` puts its bytes in the file it is given —
    through ``job.read_file`` (``read_file``, injected); return their pages as sections, numbered on from 1 across all of them."""
    pages: list[Page] = []
    with tempfile.TemporaryDirectory(prefix="readlens-members-") as folder:
        for index, (name, write) in enumerate(members, 1):
            shown, reason = label(name), None
            path = Path(folder) / f"member-{index}{safe_suffix(name)}"
            try:
                with open(path, "wb") as handle, last_resort(shown):
                    write(handle)
                reading = job.read_file(path, describe=job.question, multimodal=job.multimodal, services=job.services,
                                    progress=job.progress, name=shown, visitor=job.visitor)
            except ReaderError as error:  # read_file raises nothing else: one member's failure never loses the others
                reason = error.message
            finally:
                path.unlink(missing_ok=True)
            if reason is not None:
                job.warnings.append(reason)
                pages.append(Page(number=len(pages) + 1, text=f"(not read: {reason})", error=reason, section=shown))
                continue
            job.warnings.extend(reading.warnings)
            for page in _pages_of(reading):
                page.number, page.section = len(pages) + 1, f"{shown}/{page.section}" if page.section else shown
                pages.append(page)
    return pages


def container_reading(job, pages: list[Page]):
    """The container's reading: its pages numbered across all sections, cut to the requested range."""
    numbers = set(job.select(len(pages)))
    return job.reading(len(pages), [page for page in pages if page.number in numbers])
