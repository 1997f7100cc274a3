"""Processes as /proc shows them, for tests and benches that check what a run leaves behind."""

from __future__ import annotations

from pathlib import Path


def _stat(pid: int | str) -> list[str]:
    """The fields of ``/proc/<pid>/stat`` after the command's name: state, parent, ..."""
    return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()


def descendants(pid: int) -> set[int]:
    """Every process below ``pid``: its children, theirs, and so on."""
    children: dict[int, list[int]] = {}
    for entry in Path("/proc").iterdir():
        try:
            if entry.name.isdigit():
                children.setdefault(int(_stat(entry.name)[1]), []).append(int(entry.name))
        except OSError:
            pass
    found, frontier = set(), [pid]
    while frontier:
        for child in children.get(frontier.pop(), []):
            found.add(child)
            frontier.append(child)
    return found


def running(pid: int) -> bool:
    """The process exists and is not a zombie."""
    try:
        return _stat(pid)[0] != "Z"
    except OSError:
        return False
