"""The walls LibreOffice and Chromium run inside: no network, and none of the machine's files.

A document can link a picture, a text, a template or an object at any file or address, and an
engine that loads it hands the server's own files, or an internal service's answer, to whoever
uploaded the document (``docs/limits.md``). Three guards keep every link unloaded:

1. what a document links is taken out of the copy an engine sees (``readers.intake.links``);
2. each engine is told not to load it: LibreOffice's profile blocks linked content and sends
   anything else to a proxy on a closed port (``readers.render.libreoffice``); Chromium aborts every
   request and has the same closed proxy (``readers.render.browser``);
3. here, where the machine allows it (Debian's ``bubblewrap`` can make namespaces), each engine
   runs in a network namespace of its own, with a loopback of its own and no way out, and sees
   only the system's programs, libraries and fonts, read-only, and its own work folders: no home
   folder, no ``/tmp`` of the machine's, no cache and no uploads but the one it converts. It runs
   as nobody (a user namespace of its own maps it there, even when the app runs as root), with
   every capability dropped, in a PID namespace of its own with its own ``/proc``: it sees no
   other process, so neither the app's environment nor its files through ``/proc/<pid>/root``.
   Chromium keeps its own sandbox inside them (``chromium_sandbox``).

Its environment is a short list too (``environment``): no API key reaches an engine.

Where the walls cannot be made (most hosted containers allow no namespaces), ``engine_allowed``
decides: in public mode the engines do not run at all (a legacy Office file is refused, and Office
files and web pages are read without page images, each saying why, and the app's first screen
says so); elsewhere they run with the other guards, and the reading carries a notice.
"""

from __future__ import annotations

import functools
import logging
import os
import shutil
import subprocess
from collections.abc import Sequence
from pathlib import Path

from ..notices import Code, Notice

# What an engine may read of the machine, read-only: programs, libraries, fonts and the font
# cache, and of /etc only what LibreOffice and Chromium open to start (found with strace).
SYSTEM = ("/usr", "/var/cache/fontconfig")
ETC = (
    "fonts",
    "libreoffice",
    "chromium",
    "chromium.d",
    "passwd",
    "group",
    "nsswitch.conf",
    "ld.so.cache",
    "localtime",
    "papersize",
)
MERGED = ("/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32")  # links into /usr on Debian, folders elsewhere
ENVIRONMENT = ("PATH", "LANG", "LANGUAGE", "TZ", "USER", "LOGNAME")  # and every LC_* locale setting
TRIAL_SECONDS = 10
NOBODY = "65534"  # the uid and gid an engine runs as inside its user namespace
NOT_RUN = "this public server cannot wall {engine} in (bubblewrap cannot make namespaces here), so it does not run it."
UNWALLED = (
    "{engine} ran without its walls for {name}: bubblewrap cannot make namespaces on this machine "
    "(docs/limits.md), so only its own settings keep it from the network and the machine's files."
)

log = logging.getLogger(__name__)


def environment(home: Path) -> dict[str, str]:
    """The environment an engine runs with: the locale, the path and who runs it, and ``home``
    as its home and temporary folder; nothing else of this process's (no key, no proxy)."""
    kept = {name: value for name, value in os.environ.items() if name in ENVIRONMENT or name.startswith("LC_")}
    return {**kept, "HOME": str(home), "TMPDIR": str(home)}


def _system_view() -> list[str]:
    """bubblewrap's arguments for the read-only view of the system (see ``SYSTEM`` and ``ETC``)."""
    arguments = []
    for folder in SYSTEM:
        arguments += ["--ro-bind-try", folder, folder]
    for folder in MERGED:
        if os.path.islink(folder):
            arguments += ["--symlink", os.readlink(folder), folder]
        elif os.path.isdir(folder):
            arguments += ["--ro-bind", folder, folder]
    for name in ETC:
        arguments += ["--ro-bind-try", f"/etc/{name}", f"/etc/{name}"]
    return arguments


def _walls(writable: list[Path], readable: Sequence[Path]) -> list[str]:
    arguments = ["bwrap", "--unshare-user", "--uid", NOBODY, "--gid", NOBODY, "--unshare-pid", "--unshare-net"]
    arguments += ["--unshare-ipc", "--unshare-uts", "--cap-drop", "ALL", "--die-with-parent", *_system_view()]
    arguments += ["--dev", "/dev", "--proc", "/proc", "--tmpfs", "/tmp", "--tmpfs", "/dev/shm"]
    for path in readable:
        arguments += ["--ro-bind", str(path), str(path)]
    for folder in writable:
        arguments += ["--bind", str(folder), str(folder)]
    return arguments + ["--"]


@functools.cache
def available() -> bool:
    """Whether this machine lets bubblewrap make the walls (tried once per process): it must be
    installed (``packages.txt``) and allowed to make namespaces, a user namespace among them."""
    if shutil.which("bwrap") is None:
        log.warning("bubblewrap is not installed: LibreOffice and Chromium run without their walls (make setup)")
        return False
    done: subprocess.CompletedProcess | Exception
    try:
        done = subprocess.run(
            [*_walls([], []), "true"], capture_output=True, timeout=TRIAL_SECONDS, stdin=subprocess.DEVNULL
        )
    except (OSError, subprocess.TimeoutExpired) as error:
        done = error
    if getattr(done, "returncode", 1) != 0:
        reason = getattr(done, "stderr", b"") or str(done).encode()
        log.warning(
            "bubblewrap cannot make namespaces here (%s): engines run without their walls", reason.decode()[:200]
        )
        return False
    return True


def walled(command: list[str], writable: list[Path], readable: Sequence[Path] = ()) -> list[str]:
    """``command`` run inside the walls, where it may write only to ``writable`` (folders that
    exist) and read ``readable`` too (its own script); as it is where the machine does not allow
    the walls (the other guards still hold)."""
    return [*_walls(writable, readable), *command] if available() else command


def chromium_sandbox() -> list[str]:
    """Chromium's arguments for its own sandbox: kept inside the walls (where it makes namespaces of
    its own, as nobody), switched off without them (as root, or where no namespace can be made, it
    cannot start with it)."""
    return [] if available() else ["--no-sandbox"]


def engine_allowed(job, engine: str, notices: list[Notice]) -> bool:
    """Whether ``engine`` (LibreOffice, Chromium) may run for ``job``: always inside the walls;
    without them never in public mode, and elsewhere with a notice that says so."""
    if available():
        return True
    if job.settings.public:
        return False
    notices.append(Notice(Code.UNWALLED, UNWALLED.format(engine=engine, name=job.name)))
    return True


def _children() -> dict[int, list[int]]:
    """Each process's children, as /proc shows them."""
    children: dict[int, list[int]] = {}
    for entry in Path("/proc").iterdir():
        try:
            if entry.name.isdigit():
                parent = int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1])
                children.setdefault(parent, []).append(int(entry.name))
        except OSError:  # it ended meanwhile
            pass
    return children


def host_pid(inner: int | None, root: int) -> int | None:
    """The pid, as this process sees it, of the process below ``root`` (the walls' bubblewrap) that
    its own PID namespace numbers ``inner``: an engine inside the walls tells its pid as it sees it.
    Without the walls that is the pid already; None when no such process runs."""
    if inner is None or not available():
        return inner
    children, frontier = _children(), [root]
    while frontier:
        pid = frontier.pop()
        try:
            status = Path(f"/proc/{pid}/status").read_text()
        except OSError:
            continue
        numbers = next((line.split()[1:] for line in status.splitlines() if line.startswith("NSpid:")), [])
        if len(numbers) > 1 and int(numbers[-1]) == inner:
            return pid
        frontier += children.get(pid, [])
    return None
