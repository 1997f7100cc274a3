"""Office documents: LibreOffice headless → PDF or → OOXML, cached by content hash.

Legacy and ODF files (DOC, RTF, ODT, PPT, ODP, XLS, ODS) are converted to DOCX, PPTX or XLSX once,
and then read by the same reader as a file that came that way; a spreadsheet whose formulas have
no stored results is recalculated the same way.

Each conversion runs with a profile directory of its own: profiles live in a small pool under the
cache directory and a conversion holds its profile's lock while it runs, so parallel conversions
(threads or processes) never share one, and none pays LibreOffice's first-start cost twice.
"""

from __future__ import annotations

import fcntl
import os
import shutil
import signal
import socket
import subprocess
import tempfile
import time
from pathlib import Path

from ..errors import ReaderError
from ..kinds import KINDS, SOURCE_EXTENSION
from ..storage.files import write_atomic

PROFILE_SLOTS = 8
CONVERTED_NAME = "office.pdf"


def soffice() -> str | None:
    return shutil.which("soffice") or shutil.which("libreoffice")


class _Profile:
    """Hold one free profile slot's lock for the length of a conversion."""

    def __init__(self, root: Path):
        self.root = root

    def __enter__(self) -> Path:
        self.root.mkdir(parents=True, exist_ok=True)
        while True:  # every slot busy: wait for whichever frees first
            for slot in range(PROFILE_SLOTS):
                handle = open(self.root / f"{slot}.lock", "w")
                try:
                    fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
                except BlockingIOError:
                    handle.close()
                    continue
                self.handle = handle
                return self.root / f"profile-{slot}"
            time.sleep(0.2)

    def __exit__(self, *exc) -> None:
        self.handle.close()


def _remove_stale_pipes() -> None:
    """A killed LibreOffice leaves its IPC socket in /tmp (a fixed place, whatever TMPDIR says);
    remove the sockets nobody listens on any more."""
    for pipe in Path("/tmp").glob(f"OSL_PIPE_{os.getuid()}_SingleOfficeIPC_*"):
        with socket.socket(socket.AF_UNIX) as probe:
            try:
                probe.connect(str(pipe))
            except ConnectionRefusedError:
                pipe.unlink(missing_ok=True)
            except OSError:
                pass


def _convert(source: Path, extension: str, convert_to: str, target: Path, timeout: float, profiles: Path, name: str, why: str,
             failed: str = "RENDER_FAILED") -> None:
    """Run LibreOffice headless on ``source`` (shown to it as ``document.<extension>``) and write its
    output to ``target``. ``why`` ends the error messages: what the person can still do or expect.

    Raises ``RENDER_FAILED`` when LibreOffice runs past ``timeout`` (it is then killed with its
    whole process group), and ``failed`` when it cannot convert the file.
    """
    with tempfile.TemporaryDirectory(prefix="readlens-office-") as work, _Profile(profiles) as profile:
        work = Path(work)
        document = work / f"document.{extension}"  # a neutral name: uploads can be named anything
        os.symlink(source.resolve(), document)
        command = [soffice(), "--headless", "--norestore", "--nologo", "--nolockcheck", "--nodefault",
                   f"-env:UserInstallation={profile.resolve().as_uri()}", "--convert-to", convert_to,
                   "--outdir", str(work / "out"), str(document)]
        # LibreOffice's own temporary files go in our folder, so even a killed run leaves nothing.
        process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, start_new_session=True,
                                   env={**os.environ, "TMPDIR": str(work)})
        try:
            output, _ = process.communicate(timeout=timeout)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            process.communicate()
            _remove_stale_pipes()
            raise ReaderError("RENDER_FAILED", f"LibreOffice took longer than {timeout:g} s to convert {name} and was stopped (OFFICE_TIMEOUT). {why}") from None
        finally:
            if process.poll() is None:
                os.killpg(process.pid, signal.SIGKILL)
                process.wait()
        produced = work / "out" / f"document.{target.suffix.lstrip('.')}"
        if process.returncode != 0 or not produced.is_file() or produced.stat().st_size == 0:
            detail = output.decode(errors="replace").strip().splitlines()[-1:] or ["no output"]
            raise ReaderError(failed, f"LibreOffice could not convert {name} ({detail[0]}). {why}")
        write_atomic(target, produced.read_bytes())


def convert_to_pdf(source: Path, kind: str, target: Path, timeout: float, profiles: Path, name: str) -> None:
    """Convert ``source`` (a ``kind`` document) to the PDF ``target`` with LibreOffice headless.

    Raises ``RENDER_FAILED`` when LibreOffice fails or runs past ``timeout``.
    """
    _convert(source, kind, KINDS[kind].pdf_filter, target, timeout, profiles, name, "Its text is still read, without page images.")


def office_pdf(job) -> Path | None:
    """LibreOffice's PDF of the job's document, converting at most once per content hash.

    Returns None (with a warning on the job) when LibreOffice is not installed or the rendering
    failed, so the caller can still read the text.
    """
    target = job.services.store.path(job.sha256, CONVERTED_NAME)
    if target.is_file():
        return target
    if soffice() is None:
        job.warnings.append(f"LibreOffice is not installed, so {job.name} has no page images and its text comes from the file itself. Install LibreOffice (make setup does) for renders.")
        return None
    try:
        convert_to_pdf(job.path, job.kind, target, job.settings.office_timeout, job.settings.cache_dir / "office-profiles", job.name)
    except ReaderError as error:
        job.warnings.append(error.message)
        return None
    return target


def ooxml_copy(job, recalculate: bool = False) -> Path:
    """The job's document as the OOXML file its reader reads: a legacy or ODF file converted by
    LibreOffice (or, with ``recalculate``, a workbook LibreOffice has recalculated), made at most
    once per content hash. Raises ``ReaderError`` when that cannot be done."""
    target = job.services.store.path(job.sha256, f"{'recalculated' if recalculate else 'converted'}.{job.kind}")
    if target.is_file():
        return target
    extension = job.kind if recalculate else SOURCE_EXTENSION[job.mime]
    if soffice() is None:
        raise ReaderError("UNSUPPORTED_FORMAT", f"Reading {job.name} (.{extension}) needs LibreOffice, which is not installed. "
                                                f"Install it (make setup does), or save the file as .{job.kind}.")
    _convert(job.path, extension, KINDS[job.kind].ooxml_filter, target, job.settings.office_timeout, job.settings.cache_dir / "office-profiles",
             job.name, f"The file may be damaged; open it and save it as .{job.kind}.", failed="CORRUPT_FILE")
    return target
