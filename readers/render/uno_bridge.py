"""The other end of ``readers.render.libreoffice``: one headless LibreOffice, kept warm, driven over UNO.

Run by Debian's ``/usr/bin/python3``, which has LibreOffice's Python bridge (``python3-uno``); the
project's own interpreter never loads LibreOffice's libraries. It imports nothing from ``readers``.

    /usr/bin/python3 uno_bridge.py SOFFICE PROFILE_URL PIPE_NAME

It starts LibreOffice (in its own process group, which the reader kills on a timeout) listening on
the UNO pipe PIPE_NAME, and prints ``{"ready": pid}`` when it answers. Then each line read from
stdin is one conversion, ``{"source", "target", "filter_name", "options", "recalculate"}``, answered
by one line: ``{"ok": true}`` or ``{"error": "...", "alive": bool}`` (``alive`` false when
LibreOffice itself has gone, or the connection to it). At the end of stdin (the reader's process has
finished or died) it closes LibreOffice.

If the bridge itself is killed (Ray ends a worker's children with SIGKILL), a watcher it started
first, in the same process group, sees the bridge's end of a pipe close and kills the group:
LibreOffice (``oosplash`` and ``soffice.bin``, which outlive a killed parent) and itself."""

import json
import os
import subprocess
import sys
import threading
import time

import uno
import unohelper
from com.sun.star.awt import XCallback
from com.sun.star.beans import PropertyValue
from com.sun.star.connection import NoConnectException

CONNECT_PAUSE = 0.05
WATCH_SECONDS = 0.2  # how often a conversion under way checks that LibreOffice still runs


def _property(name, value):
    found = PropertyValue()
    found.Name, found.Value = name, value
    return found


def _connect(office, pipe):
    """The running LibreOffice's component context, once its pipe answers; None if it stopped first."""
    local = uno.getComponentContext()
    resolver = local.ServiceManager.createInstanceWithContext("com.sun.star.bridge.UnoUrlResolver", local)
    while office.poll() is None:
        try:
            context = resolver.resolve(f"uno:pipe,name={pipe};urp;StarOffice.ComponentContext")
        except NoConnectException:
            time.sleep(CONNECT_PAUSE)
            continue
        return context
    return None


class _OnMainThread(unohelper.Base, XCallback):
    """Work LibreOffice runs on its main thread, as its own command line does: loading some
    documents (comments, charts) from a remote call's thread aborts LibreOffice 7.4. The calls the
    work makes come back to that thread, which waits in ``notify`` for them."""

    def __init__(self, work):
        self.work, self.done, self.error = work, threading.Event(), None

    def notify(self, data):
        try:
            self.work()
        except Exception as error:  # UNO raises its own types: they are the answer
            self.error = error
        finally:
            self.done.set()


def _on_main_thread(context, office, work):
    """Run ``work`` on LibreOffice's main thread and wait for it; raise what it raised, or
    ``ConnectionError`` when LibreOffice stops first."""
    call = _OnMainThread(work)
    context.ServiceManager.createInstanceWithContext("com.sun.star.awt.AsyncCallback", context).addCallback(call, None)
    while not call.done.wait(WATCH_SECONDS):
        if office.poll() is not None:
            raise ConnectionError("LibreOffice stopped while converting")
    if call.error is not None:
        raise call.error


def _convert(desktop, source, target, filter_name, options, recalculate):
    """Load ``source`` hidden, without running its macros or updating its links, and store it
    through the export filter ``filter_name`` with its ``options`` (FilterData)."""
    document = desktop.loadComponentFromURL(
        uno.systemPathToFileUrl(source),
        "_blank",
        0,
        (_property("Hidden", True), _property("MacroExecutionMode", 0), _property("UpdateDocMode", 0)),
    )
    if document is None:
        raise ValueError("it could not be opened")
    try:
        if recalculate:
            document.calculateAll()
        arguments = [_property("FilterName", filter_name), _property("Overwrite", True)]
        if options:
            data = tuple(_property(name, value) for name, value in options.items())
            arguments.append(_property("FilterData", uno.Any("[]com.sun.star.beans.PropertyValue", data)))
        uno.invoke(document, "storeToURL", (uno.systemPathToFileUrl(target), tuple(arguments)))
    finally:
        document.close(True)


# Waits for the end of its stdin (the bridge's end of a pipe, open while the bridge lives), then
# kills its process group: the bridge's, with LibreOffice in it.
WATCHER = "import os, signal, sys; sys.stdin.buffer.read(); os.killpg(0, signal.SIGKILL)"


def _watch_for_our_end():
    """Start the watcher that kills this process group once this process has ended, however it
    ended. The pipe's write end is left open, for this process's life (LibreOffice does not
    inherit it: Python's descriptors are not inherited)."""
    end, _ = os.pipe()
    subprocess.Popen([sys.executable, "-c", WATCHER], stdin=end, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    os.close(end)


def main():
    soffice, profile, pipe = sys.argv[1:4]
    _watch_for_our_end()
    office = subprocess.Popen(
        [
            soffice,
            "--headless",
            "--invisible",
            "--norestore",
            "--nologo",
            "--nolockcheck",
            "--nodefault",
            "--nofirststartwizard",
            f"-env:UserInstallation={profile}",
            f"--accept=pipe,name={pipe};urp;",
        ],
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    context = _connect(office, pipe)
    if context is None:
        print(json.dumps({"error": f"LibreOffice stopped as it started (exit code {office.returncode})"}), flush=True)
        return
    desktop = context.ServiceManager.createInstanceWithContext("com.sun.star.frame.Desktop", context)
    print(json.dumps({"ready": office.pid}), flush=True)
    for line in sys.stdin:
        request = json.loads(line)
        try:
            _on_main_thread(context, office, lambda request=request: _convert(desktop, **request))
            reply = {"ok": True}
        except Exception as error:  # UNO raises its own types; the reader names the failure
            message = getattr(error, "Message", "") or str(error)
            gone = office.poll() is not None or "Disposed" in type(error).__name__
            reply = {"error": f"{type(error).__name__}: {message}".strip(": "), "alive": not gone}
        print(json.dumps(reply), flush=True)
    try:
        desktop.terminate()
        office.wait(timeout=5)
    except Exception:  # it has gone already, or will not go: it is killed below
        pass
    if office.poll() is None:
        office.kill()


if __name__ == "__main__":
    main()
