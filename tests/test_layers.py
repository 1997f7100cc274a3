"""The house's layers, held by the suite (``docs/architecture.md``): the import graph of ``readers``,
``ui``, ``app.py``, ``testkit``, ``bench`` and ``tests``, imports inside functions included, has no
cycle; a package imports only the packages above it in ``LAYERS``; a format reader is imported by the
registry alone; and ``tests`` and ``bench`` never import each other (what both need is in ``testkit``)."""

from __future__ import annotations

import ast
from pathlib import Path

from testkit import CORPUS, ROOT

# Each line may import itself and the lines above it, never one below (the flow of a read,
# docs/architecture.md). A package not named is in its parent's line.
LAYERS = [
    {"readers.errors", "readers.versions", "readers.settings", "readers.notices"},
    {"readers.storage", "readers.kinds", "readers.options"},
    {"readers.markup", "readers.models"},
    {"readers.services"},
    {"readers.job"},
    {"readers.intake"},
    {"readers.render"},
    {"readers.pdf"},
    {"readers.office"},
    {"readers.describe"},
    {"readers.payload"},
    {"readers.formats"},
    {"readers.core"},
    {"readers.batch", "readers.__main__", "readers"},
    {"readers.integrations"},  # LangChain's and LlamaIndex's loaders, over the public surface and the batch walker
    {"ui", "app"},
    {"testkit"},
    {"bench", "tests"},  # side by side: neither imports the other
]
# The imports downward the design allows, inside a function (or for type checkers) only: the Reading's public methods
# (as_text, as_messages, tokens, chunks) hand off to the payload, so that the model stays data; and the services, which
# the job (below the engines) holds, build the vision client and the transcriber on first use.
LAZY_UPWARD = {("readers.models", "readers.payload"), ("readers.services", "readers.describe")}
PACKAGES = ("readers", "ui", "testkit", "bench", "tests")


def _modules() -> dict[str, Path]:
    found = {}
    for package in PACKAGES:
        for path in (ROOT / package).rglob("*.py"):
            if path.is_relative_to(CORPUS):  # other projects' files, read as data
                continue
            parts = list(path.relative_to(ROOT).with_suffix("").parts)
            found[".".join(parts[:-1] if parts[-1] == "__init__" else parts)] = path
    return {**found, "app": ROOT / "app.py"}


def _imports(modules: dict[str, Path]) -> list[tuple[str, str, bool]]:
    """(importer, imported, whether inside a function) for every import between the modules."""

    def resolve(name: str, current: str, package: bool, level: int) -> str | None:
        if level:
            base = current.split(".") if package else current.split(".")[:-1]
            name = ".".join(base[: len(base) - level + 1] + ([name] if name else []))
        while name and name not in modules:
            name = name.rpartition(".")[0]
        return name or None

    found = []
    for module, path in modules.items():
        package = path.name == "__init__.py"
        tree = ast.parse(path.read_text(encoding="utf-8"))
        # inside a function, or for type checkers only (``if TYPE_CHECKING:``): not run at import
        deferred = [
            node
            for node in ast.walk(tree)
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef)
            or (isinstance(node, ast.If) and isinstance(node.test, ast.Name) and node.test.id == "TYPE_CHECKING")
        ]
        lazy = {id(inner) for node in deferred for inner in ast.walk(node)}
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                names = [(alias.name, 0) for alias in node.names]
            elif isinstance(node, ast.ImportFrom):
                prefix = f"{node.module}." if node.module else ""
                names = [(node.module or "", node.level)] + [(prefix + alias.name, node.level) for alias in node.names]
            else:
                continue
            for name, level in names:
                target = resolve(name, module, package, level)
                if (
                    target
                    and target != module
                    and not (module.startswith(target + ".") and modules[target].name == "__init__.py")
                ):
                    found.append((module, target, id(node) in lazy))
    return found


def _placed(module: str) -> tuple[int, str]:
    """The line of ``LAYERS`` a module is in, and the name it is listed under there."""
    name = module
    while name:
        for index, line in enumerate(LAYERS):
            if name in line:
                return index, name
        name = name.rpartition(".")[0]
    raise AssertionError(f"{module} is in no layer: add its package to LAYERS")


def _cycles(edges: dict[str, set[str]]) -> list[list[str]]:
    """The import graph's strongly connected components of more than one module (Tarjan)."""
    index, low, stack, on_stack, found = {}, {}, [], set(), []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for other in edges.get(node, ()):
            if other not in index:
                visit(other)
                low[node] = min(low[node], low[other])
            elif other in on_stack:
                low[node] = min(low[node], index[other])
        if low[node] == index[node]:
            component = []
            while True:
                other = stack.pop()
                on_stack.discard(other)
                component.append(other)
                if other == node:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for node in list(edges):
        if node not in index:
            visit(node)
    return found


def test_no_import_cycles_lazy_imports_included():
    assert _cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]  # the finder finds one
    edges: dict[str, set[str]] = {}
    for importer, imported, _ in _imports(_modules()):
        edges.setdefault(importer, set()).add(imported)
    assert _cycles(edges) == []


def test_no_package_imports_one_below_it():
    upward = sorted(
        {
            (importer, imported)
            for importer, imported, lazy in _imports(_modules())
            if _placed(imported)[0] > _placed(importer)[0]
            and not (lazy and (_placed(importer)[1], _placed(imported)[1]) in LAZY_UPWARD)
        }
    )
    assert upward == [], "imports of a package below the importer's in LAYERS: " + ", ".join(
        f"{a} -> {b}" for a, b in upward
    )


def test_a_format_reader_is_imported_by_the_registry_alone():
    importers = sorted(
        {
            importer
            for importer, imported, _ in _imports(_modules())
            if imported.startswith("readers.formats.")
            and importer != "readers.formats"
            and not importer.startswith("tests.")  # a reader's own tests call its functions
        }
    )
    assert importers == []


def test_tests_and_bench_never_import_each_other():
    crossing = sorted(
        {
            (importer, imported)
            for importer, imported, _ in _imports(_modules())
            if {importer.partition(".")[0], imported.partition(".")[0]} == {"tests", "bench"}
        }
    )
    assert crossing == [], "tests and bench import each other (move what both need to testkit): " + ", ".join(
        f"{a} -> {b}" for a, b in crossing
    )
