"""Files inside a container — a ZIP archive's members, an e-mail's attachments — read through
``read_file``'s own dispatch, each as its own section of the container's reading.

Limits, checked before anything is inflated, for the whole reading (nested containers share
them): at most ``MAX_MEMBERS`` files and ``MAX_INFLATED_BYTES`` inflated in all, and containers at
most ``MAX_NESTING`` deep (an archive in an archive in an archive; a fourth is refused). Past
them: ``FILE_TOO_LARGE``. Each member is written to a private temporary folder under a neutral
name (its name is never a path on disk) and read there; a member that fails is one page saying
why, and the others are still read.

A page range reads only what it covers: each member's pages are counted first, as cheaply as is
honest (its first page read as a multimodal model gets it, so nothing is described; audio, one
page, without transcribing it), then only the members the range covers are read, each for the
pages of its own the range covers. So no vision call is made for a page not returned, and each
page has the number a reading of the whole container gives it. A member counted and then read is
charged to the limits once.
"""

from __future__ import annotations

import tempfile
from collections.abc import Callable, Iterable
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import BinaryIO

from ..errors import ReaderError, last_resort
from ..kinds import kind_of
from ..markup.blocks import paragraphs
from ..models import Extraction, Page
from ..notices import Code, Notice
from ..options import ReadOptions
from .detect import detect
from .names import label, safe_suffix
from .package import MAX_INFLATED_BYTES, MB

MAX_MEMBERS = 100
MAX_NESTING = 3


@dataclass
class _Budget:
    members: int = MAX_MEMBERS
    inflated: int = MAX_INFLATED_BYTES
    charged: set[tuple[int, ...]] = field(default_factory=set)  # the places of the containers already charged


_budget: ContextVar[_Budget | None] = ContextVar("readlens_member_budget", default=None)
_depth: ContextVar[int] = ContextVar("readlens_container_depth", default=0)
_place: ContextVar[tuple[int, ...]] = ContextVar(
    "readlens_member_place", default=()
)  # the member being read: its index in each container


@contextmanager
def container(job):
    """Read inside this block a container's members: refuses one nested too deep; the outermost
    container starts the budget its nested ones share."""
    depth = _depth.get() + 1
    if depth > MAX_NESTING:
        raise ReaderError(
            "FILE_TOO_LARGE",
            f"{job.name} is nested {depth} containers deep (archives or e-mails inside each other); "
            f"at most {MAX_NESTING} levels are read.",
        )
    depth_token = _depth.set(depth)
    budget_token = _budget.set(_Budget()) if _budget.get() is None else None
    try:
        yield
    finally:
        _depth.reset(depth_token)
        if budget_token is not None:
            _budget.reset(budget_token)


def reserve(job, sizes: list[int]) -> None:
    """Take members of these inflated ``sizes`` from the reading's budget, or refuse the container;
    a container at a place already charged (its pages were counted, now its range is read) is not charged again."""
    budget, place = _budget.get(), _place.get()
    assert budget is not None, "reserve is called within a reading's budget (members.budget)"
    if place in budget.charged:
        return
    if len(sizes) > budget.members:
        raise ReaderError(
            "FILE_TOO_LARGE",
            f"{job.name} holds {len(sizes):,} files; at most {MAX_MEMBERS} files are read from one "
            f"archive or e-mail, nested ones included ({budget.members} left).",
        )
    if sum(sizes) > budget.inflated:
        raise ReaderError(
            "FILE_TOO_LARGE",
            f"{job.name} inflates to {sum(sizes) / MB:,.0f} MB; at most {MAX_INFLATED_BYTES // MB} MB "
            f"are read from one archive or e-mail, nested ones included. It may be a zip bomb.",
        )
    budget.members -= len(sizes)
    budget.inflated -= sum(sizes)
    budget.charged.add(place)


def _pages_of(reading) -> list[Page]:
    if reading.transcript is not None:  # audio: its transcript is the member's one page
        t = reading.transcript
        return [Page(number=1, blocks=paragraphs(f"Transcript ({t.summary}):\n{t.text.strip()}"))]
    return reading.pages


@dataclass
class _Member:
    name: str  # as shown: a label, never a path
    write: Callable[[BinaryIO], None]
    path: Path  # where it is written while it is read: a neutral name in the private folder
    place: int  # its index in the container
    first: int  # the number of its first page in the container
    count: int = 1
    reason: str | None = None  # why it could not be read


@contextmanager
def _written(member: _Member):
    """The member's bytes in its file, for as long as it is read at its place."""
    place = _place.set(_place.get() + (member.place,))
    try:
        with open(member.path, "wb") as handle, last_resort(member.name):
            member.write(handle)
        yield member.path
    finally:
        member.path.unlink(missing_ok=True)
        _place.reset(place)


def _options(job, member: _Member, first: int, last: int, **changes) -> ReadOptions:
    """The container's options for the member's pages ``first``-``last``: the member's own name, no
    workspace (the member is a temporary file of ours), the hotwords as the container decided them."""
    hotwords = job.options.hotwords or ""
    return replace(
        job.options, page_start=first, page_end=last, name=member.name, workspace=None, hotwords=hotwords, **changes
    )


def _count(job, member: _Member) -> int:
    """The member's pages: audio is one (its transcript) and is not transcribed to learn it; anything
    else is read for its first page as a multimodal model gets it but without images, so nothing is
    described or rendered (what that read converts is cached for the read of its range). A member with no pages at
    all (a deck with no slides) is refused page 1, and is 0."""
    with _written(member) as path:
        try:
            if kind_of(detect(path, member.name).kind).transcribed:
                return 1
        except ReaderError:
            pass  # read_file says what is wrong with it
        try:
            first = _options(job, member, 1, 1, describe=None, multimodal=True, images=False)
            reading = job.read_file(path, options=first, services=job.services)
        except ReaderError as error:
            if error.code == "PAGE_OUT_OF_RANGE":
                return 0
            raise
    return 1 if reading.transcript is not None else reading.page_count


def _not_read(reason: str, numbers: list[int]) -> list[Page]:
    return [Page(number=number, blocks=paragraphs(f"(not read: {reason})"), error=reason) for number in numbers]


def _read_range(job, member: _Member, numbers: list[int], notices: list[Notice]) -> list[Page]:
    """The member's pages ``numbers`` (its own, consecutive), read as the container was asked to be;
    what its reading (or its failure) says goes in ``notices``, but that it is part of the member: the
    container's reading says which of its pages it holds."""
    if member.reason is not None:
        notices.append(Notice(Code.MEMBER_NOT_READ, member.reason))
        return _not_read(member.reason, numbers)
    try:
        with _written(member) as path:
            own = _options(job, member, numbers[0], numbers[-1])
            reading = job.read_file(path, options=own, services=job.services, progress=job.progress)
    except ReaderError as error:  # counted, but its range could not be read: each of those pages says why
        notices.append(Notice(Code.MEMBER_NOT_READ, error.message))
        return _not_read(error.message, numbers)
    notices.extend(notice for notice in reading.notices if notice.code != Code.PART_OF_FILE)
    return _pages_of(reading)


def read_members(
    job,
    members: Iterable[tuple[str, Callable[[BinaryIO], None]]],
    leading: Iterable[Page] = (),
    notices: Iterable[Notice] = (),
):
    """The container's reading: its own ``leading`` pages (an e-mail's message), then each ``(name,
    write)`` member's — ``write`` puts its bytes in the file it is given — as sections, numbered on
    across all of them and cut to the requested range, with the container's own ``notices`` and its
    members'. Members are read through ``job.read_file`` (``read_file``, injected): counted first,
    then only those the range covers, for those pages."""
    pages, notices = list(leading), list(notices)
    with tempfile.TemporaryDirectory(prefix="readlens-members-") as folder:
        counted, total = [], len(pages)
        for index, (name, write) in enumerate(members, 1):
            member = _Member(label(name), write, Path(folder) / f"member-{index}{safe_suffix(name)}", index, total + 1)
            try:
                member.count = _count(job, member)
            except ReaderError as error:  # read_file raises nothing else: one member's failure never loses the others
                member.reason = error.message
            counted.append(member)
            total += member.count
        numbers = job.select(total, notices)
        pages = [page for page in pages if page.number in numbers]
        for member in counted:
            own = [
                number - member.first + 1 for number in numbers if member.first <= number < member.first + member.count
            ]
            for page in _read_range(job, member, own, notices) if own else ():
                page.number += member.first - 1
                page.section = f"{member.name}/{page.section}" if page.section else member.name
                pages.append(page)
    return job.reading(Extraction(total, pages, notices=notices))
