"""The walls LibreOffice and Chromium run in (``readers.render.sandbox``) hold as root and as an
ordinary user: a walled process runs as nobody with no capabilities, sees no other process (so no
other process's environment, and no way out through ``/proc/<pid>/root``), and writes nothing outside
its work folder; where the walls cannot be made, public mode runs neither engine and says so."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

from readers import ReaderError, Services, read_file
from readers.notices import Code
from readers.render import sandbox
from testkit import CORPUS, ROOT, fixtures, make_settings
from tests.conftest import BOUNDED_SECONDS

SECRET = "wall-test-secret-4d1f"  # in the app's environment: no walled process may read it
NOBODY = "65534"
LEGACY = CORPUS / "docling/formats/legacy_sample.doc"  # read through LibreOffice's DOCX copy
# Run by Debian's Python inside the walls: what it can see of other processes, and where it can write.
PROBE = r"""
import json, os, subprocess, sys
work, secret, escapes = sys.argv[1], sys.argv[2], sys.argv[3:]
seen = {"uid": os.getuid(), "pids": [], "leaks": [], "written": []}
for entry in os.listdir("/proc"):
    if entry.isdigit():
        seen["pids"].append(int(entry))
        try:
            if secret.encode() in open(f"/proc/{entry}/environ", "rb").read():
                seen["leaks"].append(int(entry))
        except OSError:
            pass
seen["capabilities"] = next(line.split()[1] for line in open("/proc/self/status") if line.startswith("CapEff"))
for target in [os.path.join(work, "inside.txt"), f"/proc/{os.getppid()}/root/tmp/escape.txt", *escapes]:
    try:
        with open(target, "w") as out:
            out.write("x")
        seen["written"].append(target)
    except OSError:
        pass
os.makedirs(os.path.join(work, "mnt"), exist_ok=True)
mount = subprocess.run(["mount", "-t", "tmpfs", "none", os.path.join(work, "mnt")], capture_output=True)
seen["mounted"] = mount.returncode == 0
print(json.dumps(seen))
"""
# Run as nobody by setpriv when the suite runs as root: the walls made by an ordinary user.
AS_USER = """
import subprocess, sys
from readers.render import sandbox
work = sys.argv[1]
command = sandbox.walled(["/usr/bin/python3", "-c", sys.argv[2], work, *sys.argv[3:]], [sandbox.Path(work)])
done = subprocess.run(command, env=sandbox.environment(sandbox.Path(work)), capture_output=True, text=True, timeout=60)
print(done.stdout or done.stderr)
"""


def escapes(tmp_path: Path) -> dict[str, Path]:
    """Places outside the work folder a walled process might write to, as the host sees them."""
    outside = tmp_path / "outside"
    outside.mkdir()
    return {
        str(outside / "escape.txt"): outside / "escape.txt",
        "/tmp/readlens-wall-escape.txt": Path("/tmp/readlens-wall-escape.txt"),
        "/usr/readlens-wall-escape.txt": Path("/usr/readlens-wall-escape.txt"),
        "/proc/1/root/readlens-wall-escape.txt": Path("/readlens-wall-escape.txt"),
    }


def probed(tmp_path: Path, as_user: bool) -> tuple[dict, Path, dict[str, Path]]:
    work = tmp_path / "work"
    work.mkdir()
    places = escapes(tmp_path)
    arguments = [SECRET, *places]
    environment = {**os.environ, "READLENS_TEST_SECRET": SECRET}
    if as_user:
        for folder in (tmp_path, work, tmp_path / "outside"):
            os.chown(folder, int(NOBODY), int(NOBODY))
        command = [
            shutil.which("setpriv"), f"--reuid={NOBODY}", f"--regid={NOBODY}", "--clear-groups", "--inh-caps=-all",
            sys.executable, "-c", AS_USER, str(work), PROBE, *arguments,
        ]  # fmt: skip
        environment["PYTHONPATH"] = str(ROOT)
    else:
        command = sandbox.walled(["/usr/bin/python3", "-c", PROBE, str(work), *arguments], [work])
        environment = sandbox.environment(work)  # as the engines are started: the app's own environment stays out
    done = subprocess.run(command, env=environment, capture_output=True, text=True, timeout=BOUNDED_SECONDS, cwd=ROOT)
    return json.loads(done.stdout.strip().splitlines()[-1]), work, places


@pytest.mark.skipif(not sandbox.available(), reason="bubblewrap cannot make namespaces on this machine")
@pytest.mark.parametrize("as_user", [False, True], ids=["root", "ordinary user"])
def test_a_walled_process_sees_no_other_process_and_writes_only_its_work_folder(tmp_path, monkeypatch, as_user):
    if as_user and os.geteuid() == 0 and shutil.which("setpriv") is None:
        pytest.skip("setpriv (util-linux) is needed to run as an ordinary user")
    if not as_user and os.geteuid() != 0:
        pytest.skip("the suite runs as an ordinary user here: the root case needs root")
    monkeypatch.setenv("READLENS_TEST_SECRET", SECRET)  # the app's environment holds it
    folder = Path(tempfile.mkdtemp(prefix="readlens-walls-"))  # pytest's own is root's alone
    try:
        seen, work, places = probed(folder, as_user and os.geteuid() == 0)
        escaped = [shown for shown, host in places.items() if host.exists()]
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    assert seen["uid"] == int(NOBODY) and int(seen["capabilities"], 16) == 0 and not seen["mounted"]
    assert not seen["leaks"] and max(seen["pids"]) < 10, seen["pids"]  # its own PID namespace: a handful of its own
    assert str(work / "inside.txt") in seen["written"]
    assert not escaped, seen["written"]


def test_without_walls_public_mode_runs_neither_engine_and_says_why(tmp_path, monkeypatch):
    monkeypatch.setattr(sandbox, "available", lambda: False)
    public = Services(make_settings(tmp_path / "public", public=True))
    document = read_file(CORPUS / "markitdown/test.docx", services=public, images=True)
    assert all(page.image is None for page in document.pages) and document.pages[0].text
    assert any("cannot wall LibreOffice in" in notice.text for notice in document.notices)
    page = read_file(fixtures.web_page(tmp_path / "page.html"), services=public, multimodal=True)
    assert page.pages[0].image is None and any("cannot wall Chromium in" in warning for warning in page.warnings)
    with pytest.raises(ReaderError) as refused:
        read_file(LEGACY, services=public)
    assert refused.value.code == "UNSUPPORTED_FORMAT" and "cannot wall LibreOffice in" in refused.value.message


@pytest.mark.skipif(shutil.which("soffice") is None, reason="LibreOffice is not installed")
def test_without_walls_elsewhere_a_reading_says_its_engine_ran_unwalled(tmp_path, monkeypatch):
    monkeypatch.setattr(sandbox, "available", lambda: False)
    reading = read_file(LEGACY, services=Services(make_settings(tmp_path / "cache")))
    assert reading.pages[0].text and [notice for notice in reading.notices if notice.code == Code.UNWALLED]


def test_without_walls_the_public_apps_first_screen_says_what_it_does_not_do(tmp_path, monkeypatch):
    from ui.layout import NO_WALLS_NOTE, build_ui

    monkeypatch.setattr(sandbox, "available", lambda: False)
    shown = build_ui(Services(make_settings(tmp_path / "public", public=True))).blocks.values()
    assert [block.value for block in shown if getattr(block, "elem_id", None) == "no-walls"] == [NO_WALLS_NOTE]
    monkeypatch.setattr(sandbox, "available", lambda: True)
    shown = build_ui(Services(make_settings(tmp_path / "walled", public=True))).blocks.values()
    assert not [block for block in shown if getattr(block, "elem_id", None) == "no-walls"]
