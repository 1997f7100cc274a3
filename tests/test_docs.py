"""The docs stay true to the code: every module, name and path that the README, ``docs/`` and the
docstrings name exists, and every link between the pages leads somewhere."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

from readers.kinds import SUPPORTED
from testkit import ROOT

PACKAGES = ("readers", "ui", "bench", "testkit", "tests")
DOTTED = re.compile(r"(?<![\w.])((?:readers|ui|bench|testkit)(?:\.[A-Za-z_][A-Za-z0-9_]*)+)")
PATHED = re.compile(r"(?<![\w./-])((?:readers|ui|bench|testkit|tests|docs|assets)/[\w./*<>-]*[\w/>])")
LINK = re.compile(r"\]\(([^)#\s]+)(?:#[^)]*)?\)")
DOCS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]


def _sources() -> list[Path]:
    return [ROOT / "app.py", *(path for package in PACKAGES for path in sorted((ROOT / package).rglob("*.py")))]


def _docstrings(path: Path) -> str:
    """The module's, classes' and functions' docstrings, and its comments."""
    tree = ast.parse(path.read_text())
    texts = [
        ast.get_docstring(node, clean=False) or ""
        for node in ast.walk(tree)
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef))
    ]
    comments = [line.split("#", 1)[1] for line in path.read_text().splitlines() if line.lstrip().startswith("#")]
    return "\n".join(texts + comments)


def _defined(module: Path) -> set[str]:
    """The names a module defines at its top (and a package's modules)."""
    if module.is_dir():
        names = {child.stem for child in module.iterdir() if child.suffix == ".py" or child.is_dir()}
        module = module / "__init__.py"
    else:
        names = set()
    tree = ast.parse(module.read_text())
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            names.add(node.name)
        elif isinstance(node, (ast.Assign, ast.AnnAssign)):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            names |= {name.id for target in targets for name in ast.walk(target) if isinstance(name, ast.Name)}
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            names |= {(alias.asname or alias.name).split(".")[0] for alias in node.names}
    return names


def dotted_problem(name: str) -> str | None:
    """Why ``readers.pdf.pages.read_pdf_pages`` names nothing, or None: the longest prefix that is a
    module or package, then a name that module defines."""
    parts = name.rstrip(".").split(".")
    for cut in range(len(parts), 0, -1):
        base = ROOT.joinpath(*parts[:cut])
        module = base if base.is_dir() and (base / "__init__.py").exists() else base.with_suffix(".py")
        if module.exists():
            rest = parts[cut:]
            if rest and rest[0] not in _defined(module):
                return f"{'.'.join(parts[:cut])} has no {rest[0]}"
            return None
    return f"no module {name}"


def path_problem(text: str, base: Path = ROOT) -> str | None:
    """Why ``readers/pdf/pages.py`` (or a pattern: ``bench/bench_*.py``, ``bench/bench_<topic>.py``)
    names nothing, or None."""
    pattern = re.sub(r"<[^>]*>", "*", text)
    if "*" in pattern:
        return None if any(base.glob(pattern)) else f"nothing matches {text}"
    target = (base / text).resolve()
    return None if target.exists() or target.with_suffix(".py").exists() else f"no file {text}"


def _problems(text: str) -> list[str]:
    found = [dotted_problem(name) for name in DOTTED.findall(text)]
    found += [path_problem(path) for path in PATHED.findall(text)]
    return [problem for problem in found if problem]


@pytest.mark.parametrize("source", _sources(), ids=lambda path: str(path.relative_to(ROOT)))
def test_docstrings_name_what_exists(source):
    assert _problems(_docstrings(source)) == []


@pytest.mark.parametrize("page", DOCS, ids=lambda path: path.name)
def test_docs_name_what_exists_and_link_where_they_say(page):
    text = page.read_text()
    prose = re.sub(r"`[^`]*`", "", re.sub(r"```.*?```", "", text, flags=re.S))  # links, not code that shows one
    broken = [
        path_problem(link, page.parent) for link in LINK.findall(prose) if not link.startswith(("http", "mailto:"))
    ]
    assert _problems(text) + [problem for problem in broken if problem] == []


def test_the_docs_list_every_format_the_registry_of_kinds_has():
    assert f"ReadLens reads {SUPPORTED}." in " ".join((ROOT / "docs/formats.md").read_text().split())


def test_the_api_docs_list_every_notice_code():
    from readers.notices import Code

    listed = set(re.findall(r"^\| `([a-z_]+)` \|", (ROOT / "docs/api.md").read_text(), re.M))
    assert {str(code) for code in Code} <= listed


def test_a_broken_name_is_seen():
    assert dotted_problem("readers.pdf.pages.read_pdf_pages") is None
    assert dotted_problem("readers.tokens") == "readers has no tokens"
    assert dotted_problem("readers.pdf.pages.no_such_function") == "readers.pdf.pages has no no_such_function"
    assert path_problem("readers/document.py") == "no file readers/document.py"
    assert path_problem("readers/pdf/") is None


@pytest.mark.parametrize("source", _sources(), ids=lambda path: str(path.relative_to(ROOT)))
def test_every_file_stays_small_and_every_line_short(source):
    """The house's measures, which ruff does not hold: no file over 500 lines, and no line over 120
    characters, a line that ends in a ``noqa`` comment included."""
    lines = source.read_text().splitlines()
    assert len(lines) <= 500, f"{source.name} has {len(lines)} lines: split it by what its parts hold"
    long = [(number, len(line)) for number, line in enumerate(lines, 1) if len(line) > 120]
    assert not long, f"{source.name}: lines over 120 characters (line, length): {long}"
