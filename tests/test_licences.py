"""What ReadLens ships carries a licence an MIT project can ship it under: every package the app and
the batch command install (``requirements.txt``, ``requirements-batch.txt`` and all they pull in), and
the frameworks of its integrations' extras (``readlens[langchain]``, ``readlens[llamaindex]``) with all
theirs, says its licence, and none is the GPL, the LGPL or the AGPL (ebooklib and extract-msg were, and were
replaced by ReadLens's own readers of EPUB packages and Outlook messages)."""

from __future__ import annotations

import importlib.metadata as metadata
import re
import tomllib

from packaging.requirements import Requirement

from testkit import ROOT

SHIPPED = ("requirements.txt", "requirements-batch.txt")
EXTRAS = ("langchain", "llamaindex")  # pyproject.toml's groups for readers.integrations
COPYLEFT = re.compile(r"\b(A?GPL|LGPL|Affero|GNU)\b", re.I)


def _pinned() -> list[str]:
    names = []
    for file in SHIPPED:
        for line in (ROOT / file).read_text().splitlines():
            if line.strip() and not line.lstrip().startswith("#"):
                names.append(Requirement(line).name)
    groups = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["optional-dependencies"]
    return names + [Requirement(pin).name for extra in EXTRAS for pin in groups[extra]]


def _installed_closure(names: list[str]) -> dict[str, metadata.Distribution]:
    """Each installed distribution the names need, theirs included (optional extras left out)."""
    found: dict[str, metadata.Distribution] = {}
    pending = list(names)
    while pending:
        name = re.sub(r"[-_.]+", "-", pending.pop()).lower()
        if name in found:
            continue
        try:
            distribution = metadata.distribution(name)
        except metadata.PackageNotFoundError:  # a dependency for another platform or Python
            continue
        found[name] = distribution
        for requirement in map(Requirement, distribution.requires or []):
            if requirement.marker is None or requirement.marker.evaluate({"extra": ""}):
                pending.append(requirement.name)
    return found


def _licence(distribution: metadata.Distribution) -> str:
    classifiers = [item for item in distribution.metadata.get_all("Classifier") or [] if item.startswith("License")]
    stated = distribution.metadata.get("License-Expression") or (distribution.metadata.get("License") or "")
    return " | ".join([stated.split("\n")[0][:200], *classifiers]).strip(" |")


def test_everything_shipped_says_its_licence_and_none_is_copyleft():
    closure = _installed_closure(_pinned())
    assert len(closure) > 50, "the requirements are installed"
    licences = {name: _licence(distribution) for name, distribution in closure.items()}
    assert [name for name, licence in licences.items() if not licence] == []
    assert {name: licence for name, licence in licences.items() if COPYLEFT.search(licence)} == {}
