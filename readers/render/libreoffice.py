"""Office documents: LibreOffice → PDF or → OOXML, cached by content hash, through one warm LibreOffice.

Legacy and ODF files (DOC, RTF, ODT, PPT, ODP, XLS, ODS) are converted to DOCX, PPTX or XLSX once,
and then read by the same reader as a file that came that way; a spreadsheet whose formulas have
no stored results is recalculated the same way.

Each process keeps one headless LibreOffice running, started on first use and reached over UNO by
``uno_bridge.py``, which Debian's Python runs (it has ``python3-uno``): a conversion after the first
costs the conversion alone, not LibreOffice's start. Conversions in one process take turns. A
LibreOffice that has died is started again and the conversion retried once; one that runs past the
timeout is killed with its whole process group, and the next conversion starts a new one. It is
closed when the process exits (``shutdown``); a process killed outright leaves none behind either
(its bridge closes LibreOffice, and a bridge killed too, as Ray kills a worker's children, takes
LibreOffice's process group with it). Each instance has a profile of its own: profiles live
in a small pool under the cache directory and an instance holds its profile's lock while it runs,
so two never share one, and none pays LibreOffice's first-start cost twice; with every slot taken,
an instance makes a temporary profile.

Nothing a document links is loaded (``docs/limits.md``): LibreOffice converts the copy of the file
without its links (``readers.intake.links.unlinked``), its profile's settings block linked content
and send anything else to a closed proxy (``LOCKED_DOWN``, written into the profile at each
start), and the bridge and LibreOffice run inside the walls of ``readers.render.sandbox``.
"""

from __future__ import annotations

import atexit
import fcntl
import json
import os
import select
import shutil
import signal
import socket
import subprocess
import tempfile
import threading
import time
from pathlib import Path
from typing import TextIO

from lxml import etree

from ..errors import ReaderError, current_budget, not_counted
from ..intake.links import unlinked
from ..kinds import KINDS, SOURCE_EXTENSION
from ..notices import Code, Notice
from ..storage.files import CONVERTED, OFFICE_PDF, RECALCULATED, write_atomic
from .sandbox import NOT_RUN, engine_allowed, environment, host_pid, walled

PROFILE_SLOTS = 8
UNO_PYTHON = "/usr/bin/python3"  # Debian's, with LibreOffice's Python bridge (python3-uno)
BRIDGE = Path(__file__).with_name("uno_bridge.py")
CLOSE_SECONDS = 5  # for LibreOffice to close when the process ends, before it is killed
WATCH_SECONDS = 0.1  # how often a conversion under way looks at its reading's time budget
# The address space LibreOffice may take (its own libraries and fonts map some 800 MB of it): a
# document that would take more (30,000 sections took 5.7 GB) stops it, and the conversion fails
# as one LibreOffice could not finish.
OFFICE_MEMORY = 2 << 30


OOR, XS, XSI = (
    "http://openoffice.org/2001/registry",
    "http://www.w3.org/2001/XMLSchema",
    "http://www.w3.org/2001/XMLSchema-instance",
)
SCRIPTING, INTERNET = "/org.openoffice.Office.Common/Security/Scripting", "/org.openoffice.Inet/Settings"
CLOSED_PROXY = ("127.0.0.1", "9")  # nothing listens on port 9 (discard), as Chromium's proxy
# Each instance's profile settings: no linked picture, text or object loaded (a document is an
# untrusted referer, and no location is trusted), no macro run, and anything else fetched goes to a
# closed proxy (readers.render.sandbox tells why).
LOCKED_DOWN = (
    (SCRIPTING, "BlockUntrustedRefererLinks", "true"),
    (SCRIPTING, "MacroSecurityLevel", "3"),
    (SCRIPTING, "DisableMacrosExecution", "true"),
    (INTERNET, "ooInetProxyType", "1"),
    (INTERNET, "ooInetNoProxy", ""),
    *(
        (INTERNET, f"ooInet{scheme}Proxy{part}", value)
        for scheme in ("HTTP", "HTTPS", "FTP")
        for part, value in zip(("Name", "Port"), CLOSED_PROXY)
    ),
)


def with_memory_ceiling(command: list[str]) -> list[str]:
    """``command`` run by util-linux's ``prlimit`` with its address space held to ``OFFICE_MEMORY``,
    which the processes it starts (LibreOffice's) inherit; as it is where ``prlimit`` is missing."""
    prlimit = shutil.which("prlimit")
    return [prlimit, f"--as={OFFICE_MEMORY}", "--", *command] if prlimit else command


def soffice() -> str | None:
    return shutil.which("soffice") or shutil.which("libreoffice")


def _profile_slot(root: Path) -> tuple[TextIO, Path] | None:
    """The lock file and folder of a free profile slot under ``root``, or None when all are taken."""
    root.mkdir(parents=True, exist_ok=True)
    for slot in range(PROFILE_SLOTS):
        handle = open(root / f"{slot}.lock", "w")
        try:
            fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            handle.close()
            continue
        return handle, root / f"profile-{slot}"
    return None


def _sentences(*parts: str) -> str:
    return " ".join(part for part in parts if part)


def _remove_stale_pipes() -> None:
    """A killed LibreOffice leaves its sockets in /tmp (a fixed place, whatever TMPDIR says):
    remove the ones nobody listens on any more."""
    for pipe in Path("/tmp").glob(f"OSL_PIPE_{os.getuid()}_*"):
        with socket.socket(socket.AF_UNIX) as probe:
            try:
                probe.connect(str(pipe))
            except ConnectionRefusedError:
                pipe.unlink(missing_ok=True)
            except OSError:
                pass


def _settle(profile: Path) -> None:
    """Write ``LOCKED_DOWN`` into the profile's settings (``user/registrymodifications.xcu``), over
    what LibreOffice saved there before, so that it holds however the profile was made."""
    settings = profile / "user" / "registrymodifications.xcu"
    ours = {(path, name) for path, name, _ in LOCKED_DOWN}
    try:
        root = etree.fromstring(settings.read_bytes(), etree.XMLParser(resolve_entities=False, no_network=True))
    except (OSError, etree.XMLSyntaxError):
        root = etree.Element(f"{{{OOR}}}items", nsmap={"oor": OOR, "xs": XS, "xsi": XSI})
    for item in root.findall("item"):
        prop = item.find("prop")
        if prop is not None and (item.get(f"{{{OOR}}}path"), prop.get(f"{{{OOR}}}name")) in ours:
            root.remove(item)
    for path, name, value in LOCKED_DOWN:
        item = etree.SubElement(root, "item", {f"{{{OOR}}}path": path})
        prop = etree.SubElement(item, "prop", {f"{{{OOR}}}name": name, f"{{{OOR}}}op": "fuse"})
        etree.SubElement(prop, "value").text = value
    write_atomic(settings, etree.tostring(root, xml_declaration=True, encoding="UTF-8"))


class _Office:
    """One running LibreOffice and the bridge that drives it, for this process."""

    def __init__(self, profiles: Path, timeout: float, name: str, why: str):
        self.owner = os.getpid()
        self.work = Path(tempfile.mkdtemp(prefix="readlens-office-"))
        slot = _profile_slot(profiles)
        self.lock: TextIO | None = slot[0] if slot else None
        profile = slot[1] if slot else self.work / "profile"
        profile = profile.resolve()
        _settle(profile)
        # LibreOffice's own temporary files go in our folder, so even a killed instance leaves nothing.
        command = [
            UNO_PYTHON,
            str(BRIDGE),
            soffice() or "soffice",
            profile.as_uri(),
            f"readlens-{self.owner}-{id(self)}",
        ]
        self.bridge = subprocess.Popen(
            with_memory_ceiling(walled(command, [self.work, profile], [BRIDGE])),
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            text=True,
            start_new_session=True,
            env=environment(self.work),
        )
        assert self.bridge.stdin is not None and self.bridge.stdout is not None  # both piped
        self.requests, self.answers = self.bridge.stdin, self.bridge.stdout
        started = self._answer(
            timeout,
            _sentences(
                f"LibreOffice took longer than {timeout:g} s to start for {name} and was stopped (OFFICE_TIMEOUT): "
                "the machine may be busy. Try again, or raise OFFICE_TIMEOUT.",
                why,
            ),
        )
        if "ready" not in started:
            self.close()
            missing = (
                "; is Debian's python3-uno installed? make setup installs it" if started.get("alive") is False else ""
            )
            raise ReaderError(
                "RENDER_FAILED",
                _sentences(f"LibreOffice could not start to convert {name} ({started['error']}{missing}).", why),
            )
        self.pid = host_pid(started["ready"], self.bridge.pid)

    def _answer(self, timeout: float, late: str) -> dict:
        """The bridge's next line; past ``timeout``, or past the time budget of the reading it works
        for (``TOO_COMPLEX``), the instance is killed and ``late`` (or the budget's refusal) raised."""
        budget, deadline = current_budget(), time.monotonic() + timeout
        ready: list = []
        while not ready and (left := deadline - time.monotonic()) > 0:
            if budget is not None and budget.spent():
                self.close(wait=False)
                raise budget.refusal()
            ready = select.select([self.answers], [], [], min(left, WATCH_SECONDS))[0]
        line = self.answers.readline() if ready else None
        if not line:
            self.close(wait=False)
            if line is None:
                raise ReaderError("RENDER_FAILED", late)
            return {"error": "the bridge to LibreOffice stopped", "alive": False}
        return json.loads(line)

    def convert(self, request: dict, timeout: float, late: str) -> dict:
        try:
            self.requests.write(json.dumps(request) + "\n")
            self.requests.flush()
        except OSError:  # the bridge has gone
            self.close(wait=False)
            return {"error": "the bridge to LibreOffice stopped", "alive": False}
        return self._answer(timeout, late)

    def alive(self) -> bool:
        return self.bridge.poll() is None

    def close(self, wait: bool = True) -> None:
        """Close LibreOffice, or with ``wait`` false kill it at once, with its process group (after
        a fork only the files go: the instance is the parent's), and remove its files."""
        if wait and self.owner == os.getpid() and self.bridge.poll() is None:
            try:
                self.requests.close()
                self.bridge.wait(timeout=CLOSE_SECONDS)
            except (OSError, subprocess.TimeoutExpired):
                pass
        if self.owner == os.getpid():
            try:
                os.killpg(self.bridge.pid, signal.SIGKILL)  # LibreOffice too, if it outlived its bridge
            except ProcessLookupError:
                pass
            self.bridge.wait()
            _remove_stale_pipes()
        shutil.rmtree(self.work, ignore_errors=True)
        if self.lock:
            self.lock.close()
            self.lock = None


_office: _Office | None = None
_lock = threading.Lock()


def running_pid() -> int | None:
    """The process id of this process's LibreOffice, or None while none runs."""
    with _lock:
        return _office.pid if _office and _office.owner == os.getpid() and _office.alive() else None


@atexit.register
def shutdown() -> None:
    """Close this process's LibreOffice, if it started one."""
    global _office
    with _lock:
        if _office is not None and _office.owner == os.getpid():
            _office.close()
        _office = None


def _convert(
    source: Path,
    extension: str,
    convert_to: str,
    target: Path,
    timeout: float,
    profiles: Path,
    name: str,
    why: str,
    failed: str = "RENDER_FAILED",
    damaged: str = "",
) -> None:
    """Convert ``source`` (shown to LibreOffice as ``document.<extension>``) with the warm
    LibreOffice through ``convert_to`` ("pdf:calc_pdf_Export:{options}") and write it to ``target``.
    ``why`` ends the error messages: what the person can still do or expect; ``damaged`` follows it
    when LibreOffice, running, refused the file.

    Raises ``RENDER_FAILED`` when LibreOffice runs past ``timeout`` (starting, or converting) or
    stops while converting, even after a second try (on a busy machine or one short of memory a
    good file can meet either, so the sentence says to try again), and ``failed`` when LibreOffice
    answers that it cannot convert the file, twice: the second time a fresh LibreOffice (under load
    one that had just started once answered a good RTF "it could not be opened")."""
    global _office
    output_extension, filter_name, *options = convert_to.split(":", 2)
    data = (
        {
            key: value["value"] == "true" if value["type"] == "boolean" else value["value"]
            for key, value in json.loads(options[0]).items()
        }
        if options
        else {}
    )
    late = _sentences(
        f"LibreOffice took longer than {timeout:g} s to convert {name} and was stopped (OFFICE_TIMEOUT): "
        "the machine may be busy. Try again, or raise OFFICE_TIMEOUT.",
        why,
    )
    with not_counted():  # another file's conversion, bounded by its own budget, is not this file's time
        _lock.acquire()
    try:
        for attempt in (1, 2):  # a LibreOffice that died or refused the file tries once more, started afresh
            if _office is None or _office.owner != os.getpid() or not _office.alive():
                if _office is not None:
                    _office.close(wait=False)
                _office = _Office(profiles, timeout, name, why)
            # In the instance's own folder, the only one of the machine's it may write to (readers.render.sandbox).
            with tempfile.TemporaryDirectory(prefix="convert-", dir=_office.work, ignore_cleanup_errors=True) as work:
                document, produced = Path(work) / f"document.{extension}", Path(work) / f"document.{output_extension}"
                # A neutral name (uploads can be named anything), and a link, not a symlink: LibreOffice follows
                # a symlink to the file and takes its lock beside it, where a killed instance left
                # ".~lock.<name>#" and every later one refused the file as damaged; a link's lock stays here.
                try:
                    os.link(source.resolve(), document)
                except OSError:  # another file system, or one without links
                    shutil.copyfile(source, document)
                request = {
                    "source": str(document),
                    "target": str(produced),
                    "filter_name": filter_name,
                    "options": data,
                    "recalculate": output_extension == extension,
                }
                answer = _office.convert(request, timeout, late)
                made = produced.read_bytes() if "error" not in answer and produced.is_file() else b""
            if made:
                break
            if attempt == 1:
                _office.close(wait=False)
    finally:
        _lock.release()
    if not answer.get("alive", True):
        raise ReaderError(
            "RENDER_FAILED",
            _sentences(
                f"LibreOffice stopped while converting {name}, on a second try too ({answer['error']}): the "
                "machine may be short of memory. Try again; if it fails again, the file is the cause.",
                why,
            ),
        )
    if not made:
        raise ReaderError(
            failed,
            _sentences(
                f"LibreOffice could not convert {name} ({answer.get('error', 'it wrote nothing')}).", why, damaged
            ),
        )
    write_atomic(target, made)


def convert_to_pdf(source: Path, kind: str, target: Path, timeout: float, profiles: Path, name: str) -> None:
    """Convert ``source`` (a ``kind`` document) to the PDF ``target`` with LibreOffice headless.

    Raises ``RENDER_FAILED`` when LibreOffice fails or runs past ``timeout``.
    """
    pdf_filter = KINDS[kind].pdf_filter
    assert pdf_filter is not None, f"{kind} is converted to PDF by LibreOffice"
    _convert(source, kind, pdf_filter, target, timeout, profiles, name, "Its text is still read, without page images.")


def office_pdf(job, notices: list[Notice]) -> Path | None:
    """LibreOffice's PDF of the job's document, converting at most once per content hash.

    Returns None (with a notice) when LibreOffice is not installed or the rendering failed, so the
    caller can still read the text.
    """
    target = job.services.store.path(job.sha256, OFFICE_PDF)
    if target.is_file():
        return target
    if soffice() is None:
        notices.append(
            Notice(
                Code.NO_IMAGES,
                f"LibreOffice is not installed, so {job.name} has no page images "
                "and its text comes from the file itself. Install LibreOffice (make setup does) for renders.",
            )
        )
        return None
    if not engine_allowed(job, "LibreOffice", notices):
        notices.append(Notice(Code.NO_IMAGES, f"{job.name} has no page images: {NOT_RUN.format(engine='LibreOffice')}"))
        return None
    try:
        convert_to_pdf(
            unlinked(job),
            job.kind,
            target,
            job.settings.office_timeout,
            job.settings.cache_dir / "office-profiles",
            job.name,
        )
    except ReaderError as error:
        if error.code == "TOO_COMPLEX":  # the reading's time is spent: the file is refused, not read without images
            raise
        notices.append(Notice(Code.NO_IMAGES, error.message))
        return None
    return target


def ooxml_copy(job, notices: list[Notice], recalculate: bool = False) -> Path:
    """The job's document as the OOXML file its reader reads: a legacy or ODF file converted by
    LibreOffice (or, with ``recalculate``, a workbook LibreOffice has recalculated), made at most
    once per content hash. Raises ``ReaderError`` when that cannot be done (in public mode where
    LibreOffice cannot be walled in, ``UNSUPPORTED_FORMAT``)."""
    target = job.services.store.path(job.sha256, RECALCULATED if recalculate else CONVERTED, job.kind)
    if target.is_file():
        return target
    extension = job.kind if recalculate else SOURCE_EXTENSION[job.mime]
    if soffice() is None:
        raise ReaderError(
            "UNSUPPORTED_FORMAT",
            f"Reading {job.name} (.{extension}) needs LibreOffice, which is not installed. "
            f"Install it (make setup does), or save the file as .{job.kind}.",
        )
    if not engine_allowed(job, "LibreOffice", notices):
        raise ReaderError(
            "UNSUPPORTED_FORMAT",
            f"Reading {job.name} (.{extension}) needs LibreOffice: {NOT_RUN.format(engine='LibreOffice')}",
        )
    ooxml_filter = KINDS[job.kind].ooxml_filter
    assert ooxml_filter is not None, f"{job.kind} is made by LibreOffice"
    _convert(
        unlinked(job),
        extension,
        ooxml_filter,
        target,
        job.settings.office_timeout,
        job.settings.cache_dir / "office-profiles",
        job.name,
        "",
        failed="CORRUPT_FILE",
        damaged=f"The file may be damaged; open it and save it as .{job.kind}.",
    )
    return target
