"""ZIP archives: each member read by its own type, as a section ``[FILE: papers/report.pdf]``, with
pages numbered across the archive (see ``readers.intake.members`` for the limits).

Folders, and the resource forks macOS adds under ``__MACOSX/``, are not members. A member that is
encrypted or damaged, or whose declared size is past ``MAX_FILE_MB``, is reported on its own page
(the last before any of it is inflated: zipfile inflates no more than a member declares); the
others are read.
"""

from __future__ import annotations

import shutil
import zipfile

from ..errors import ReaderError
from ..intake.members import container, read_members, reserve
from ..intake.names import label
from ..intake.package import DAMAGED_ZIP, MB


def _writer(job, archive: zipfile.ZipFile, info: zipfile.ZipInfo):
    def write(handle) -> None:
        if info.flag_bits & 0x1:
            raise ReaderError(
                "ENCRYPTED_FILE",
                f"{label(info.filename)} is encrypted inside {job.name}. Extract "
                "it with its password and upload it on its own.",
            )
        if info.file_size > job.settings.max_file_bytes:  # refused before a byte of it is inflated
            raise ReaderError(
                "FILE_TOO_LARGE",
                f"{label(info.filename)} inflates to {info.file_size / MB:.1f} MB inside {job.name}; the limit is "
                f"{job.settings.max_file_mb:g} MB (MAX_FILE_MB).",
            )
        try:
            with archive.open(info) as member:  # zipfile stops at the declared size and checks the CRC
                shutil.copyfileobj(member, handle, 1 << 20)
        except DAMAGED_ZIP as error:
            raise ReaderError(
                "CORRUPT_FILE", f"{label(info.filename)} is damaged inside {job.name} ({error})."
            ) from None

    return write


def read(job):
    try:
        archive = zipfile.ZipFile(job.path)
    except DAMAGED_ZIP as error:
        raise ReaderError(
            "CORRUPT_FILE", f"{job.name} is a damaged or incomplete ZIP archive ({error}). Download or create it again."
        ) from None
    with archive, container(job):
        members = [
            info for info in archive.infolist() if not info.is_dir() and not info.filename.startswith("__MACOSX/")
        ]
        if not members:
            raise ReaderError("EMPTY_FILE", f"{job.name} is a ZIP archive with no files in it.")
        reserve(job, [info.file_size for info in members])
        return read_members(job, [(info.filename, _writer(job, archive, info)) for info in members])
