"""The package: ``pip install .`` into a new virtualenv gives the ``readlens`` command (read, batch,
app, mcp) and ``from readers import read_file``.

The install is real — a wheel built from a copy of the sources, installed by pip with its console
script — and offline: the new virtualenv finds the dependencies in this one's site-packages (a
``.pth`` file), as ``--system-site-packages`` would find a system's, and its wheel is built with
this virtualenv's setuptools, so nothing is downloaded.
"""

from __future__ import annotations

import asyncio
import base64
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import sysconfig
import tomllib
from pathlib import Path

import pytest

from testkit import CORPUS, ROOT
from testkit.server import free_port, wait_until_up

PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
SOURCES = ("pyproject.toml", "README.md", "LICENSE", "readers", "ui")
FRAMEWORKS = ("langchain", "llamaindex")  # the extras of readers.integrations
PIP = [sys.executable, "-m", "pip", "--disable-pip-version-check", "--no-input"]  # this venv's pip, asking nothing


def pins(path: Path) -> set[str]:
    return {line.strip() for line in path.read_text().splitlines() if line.strip() and not line.startswith("#")}


def test_the_dependencies_are_the_requirements_pins():
    """requirements.txt (what a Space installs) is the package's dependencies and its app group;
    requirements-batch.txt its batch group; the frameworks' groups are pinned in requirements-dev.txt."""
    app = set(PYPROJECT["optional-dependencies"]["app"])
    assert set(PYPROJECT["dependencies"]) | app == pins(ROOT / "requirements.txt")
    assert not set(PYPROJECT["dependencies"]) & app and {re.split(r"[\[=]", pin)[0] for pin in app} == {
        "gradio",
        "gradio_client",
        "mcp",
    }
    assert set(PYPROJECT["optional-dependencies"]["batch"]) == pins(ROOT / "requirements-batch.txt")
    frameworks = {extra: PYPROJECT["optional-dependencies"][extra] for extra in FRAMEWORKS}
    assert {extra: [pin.split("==")[0] for pin in extra_pins] for extra, extra_pins in frameworks.items()} == {
        "langchain": ["langchain-core"],
        "llamaindex": ["llama-index-core"],
    }
    assert {pin for extra_pins in frameworks.values() for pin in extra_pins} <= pins(ROOT / "requirements-dev.txt")
    assert PYPROJECT["license"] == "MIT" and (ROOT / "LICENSE").read_text().startswith("MIT License")
    assert PYPROJECT["requires-python"] == ">=3.11" and PYPROJECT["scripts"] == {"readlens": "ui.command:main"}


@pytest.fixture(scope="module")
def installed(tmp_path_factory) -> Path:
    """A new virtualenv with the package installed from its wheel; its bin folder."""
    work = tmp_path_factory.mktemp("package")
    source = work / "source"
    source.mkdir()
    for name in SOURCES:
        copy = shutil.copytree if (ROOT / name).is_dir() else shutil.copy
        copy(
            ROOT / name,
            source / name,
            **({"ignore": shutil.ignore_patterns("__pycache__")} if copy is shutil.copytree else {}),
        )
    built = subprocess.run(
        [*PIP, "wheel", "--no-deps", "--no-build-isolation", "--no-index", "-w", str(work / "dist"), str(source)],
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert built.returncode == 0, built.stderr[-3000:]
    venv = work / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True, timeout=300)
    python = venv / "bin" / "python"
    purelib = subprocess.run(
        [str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.strip()
    # the dependencies: this virtualenv's packages, after the new one's own
    Path(purelib, "dependencies.pth").write_text(
        "\n".join(dict.fromkeys([sysconfig.get_paths()["purelib"], sysconfig.get_paths()["platlib"]])) + "\n"
    )
    wheel = next((work / "dist").glob("readlens-0.1.0-*.whl"))
    done = subprocess.run(
        [*PIP, "--python", str(python), "install", "--no-deps", "--no-index", str(wheel)],
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    return venv / "bin"


def run(bin_folder: Path, tmp_path: Path, *args, timeout: float = 600, **kwargs) -> subprocess.CompletedProcess:
    """A command of the new virtualenv, from a folder outside the repository, with a cache of its own."""
    env = {key: value for key, value in os.environ.items() if key not in ("PYTHONPATH", "VIRTUAL_ENV")}
    env.update(READLENS_CACHE_DIR=str(tmp_path / "cache"), VISION_PROVIDER="none", PATH=f"{bin_folder}:{env['PATH']}")
    return subprocess.run(args, cwd=tmp_path, env=env, capture_output=True, text=True, timeout=timeout, **kwargs)


def test_pip_install_gives_the_readers_and_the_readlens_command(installed, tmp_path):
    found = run(installed, tmp_path, "python", "-c", "import readers, ui; print(readers.__file__, ui.__file__)")
    assert found.returncode == 0 and all(path.startswith(str(installed.parent)) for path in found.stdout.split()), (
        found.stdout
    )  # the installed copy, not the repository's
    read = run(
        installed,
        tmp_path,
        "python",
        "-c",
        f"from readers import read_file; print(read_file({str(CORPUS / 'markitdown/test.pptx')!r}).page_count)",
    )
    assert read.returncode == 0 and read.stdout.strip() == "6", read.stderr[-2000:]
    text = run(installed, tmp_path, "readlens", str(CORPUS / "markitdown/test.docx"))
    assert text.returncode == 0 and text.stdout.startswith("[PAGE 1]\n"), text.stderr[-2000:]
    assert "# Abstract" in text.stdout and "d666f1f7-46cb-42bd-9a39-9a39cf2a509f" in text.stdout
    named = run(installed, tmp_path, "readlens", "read", str(CORPUS / "markitdown/test.docx"), "--format", "gemini")
    assert named.returncode == 0 and json.loads(named.stdout)[0]["text"] == text.stdout.rstrip("\n")
    usage = run(installed, tmp_path, "readlens", "--help")
    assert usage.returncode == 0 and usage.stdout.startswith("usage: readlens ")
    refused = run(installed, tmp_path, "readlens", str(tmp_path / "nothing.pdf"))
    assert refused.returncode == 2 and refused.stderr.startswith("error: FILE_NOT_FOUND: nothing.pdf was not found")


def test_the_help_names_every_command_and_help_starts_nothing(installed, tmp_path):
    """readlens --help says what FILE may be (a web address too) and names the other commands; --help after a
    command prints that command's help and exits: no server is started (it would not exit at all)."""
    usage = run(installed, tmp_path, "readlens", "--help", timeout=120)
    assert usage.returncode == 0 and usage.stdout.startswith("usage: readlens ")
    assert "FILE|URL" in usage.stdout and "or an http:// or https:// address, fetched" in " ".join(usage.stdout.split())
    for command in ("read FILE|URL", "batch PATH... --out F", "app ", "mcp "):
        assert f"\n  readlens {command}" in usage.stdout, command
    for command, says in (("app", "Serve the app"), ("mcp", "Serve the app's six tools"), ("batch", "Read every")):
        helped = run(installed, tmp_path, "readlens", command, "--help", timeout=120)
        assert helped.returncode == 0 and helped.stdout.startswith(f"usage: readlens {command} "), helped.stderr
        assert says in helped.stdout and not helped.stderr
    refused = run(installed, tmp_path, "readlens", "app", "--port", "8000", timeout=120)
    assert refused.returncode == 2 and "unrecognized arguments: --port 8000" in refused.stderr


def test_make_run_installs_the_package_editable_and_builds_leave_nothing_untracked(tmp_path):
    """make run's setup installs this checkout into its virtualenv editable, so .venv/bin/readlens exists and
    runs the checkout's code; what building it leaves (build/, *.egg-info/) is ignored by git. The install is
    make's own command, run offline (no index, this virtualenv's setuptools) into a new virtualenv."""
    planned = subprocess.run(
        ["make", "-n", "run", f"VENV={tmp_path / 'fresh'}"], cwd=ROOT, capture_output=True, text=True, timeout=120
    )
    assert planned.returncode == 0, planned.stderr
    steps = planned.stdout.splitlines()
    editable = next(index for index, step in enumerate(steps) if "pip install" in step and step.endswith("-e ."))
    assert "--no-deps" in steps[editable] and editable < next(i for i, step in enumerate(steps) if "app.py" in step)
    clone = tmp_path / "clone"
    subprocess.run(["git", "clone", "-q", str(ROOT), str(clone)], check=True, timeout=300)
    for name in SOURCES + (".gitignore",):  # this checkout's files, committed or not
        if (ROOT / name).is_dir():
            shutil.rmtree(clone / name)
            shutil.copytree(ROOT / name, clone / name, ignore=shutil.ignore_patterns("__pycache__"))
        else:
            shutil.copy(ROOT / name, clone / name)
    untracked = lambda: (
        subprocess.run(
            ["git", "ls-files", "--others", "--exclude-standard"], cwd=clone, capture_output=True, text=True, check=True
        ).stdout
    )
    before = untracked()  # this checkout's new files, not yet committed
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True, timeout=300)
    purelib = subprocess.run(
        [str(venv / "bin/python"), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.strip()
    Path(purelib, "dependencies.pth").write_text(sysconfig.get_paths()["purelib"] + "\n")
    pip = [*PIP, "--python", str(venv / "bin/python")]
    offline = ["--no-index", "--no-build-isolation"]
    for install in (
        ["install", "-q", *offline, "--no-deps", "-e", "."],
        ["wheel", "-q", *offline, "--no-deps", "-w", "dist", "."],
    ):
        done = subprocess.run([*pip, *install], cwd=clone, capture_output=True, text=True, timeout=600)
        assert done.returncode == 0, done.stderr[-3000:]
    assert (clone / "build").is_dir() and list(clone.glob("*.egg-info"))  # what a build leaves...
    assert untracked() == before  # ...is ignored by git, as the wheel in dist/ is
    (clone / "readers" / "__init__.py").open("a").write("\nEDITABLE = 'this checkout'\n")
    found = run(venv / "bin", tmp_path, "python", "-c", "import readers; print(readers.EDITABLE)", timeout=120)
    assert found.stdout.strip() == "this checkout", found.stderr[-2000:]  # the checkout's code, not a copy
    helped = run(venv / "bin", tmp_path, "readlens", "--help", timeout=120)
    assert (venv / "bin" / "readlens").is_file() and helped.returncode == 0, helped.stderr[-2000:]


def test_readlens_batch_reads_a_folder(installed, tmp_path):
    folder = tmp_path / "docs"
    folder.mkdir()
    shutil.copy(CORPUS / "markitdown/test.pptx", folder)
    done = run(installed, tmp_path, "readlens", "batch", str(folder), "--out", str(tmp_path / "pages.jsonl"))
    assert done.returncode == 0, done.stderr[-2000:]
    records = [json.loads(line) for line in (tmp_path / "pages.jsonl").read_text().splitlines()]
    assert [record["page"] for record in records] == [1, 2, 3, 4, 5, 6] and records[0]["kind"] == "pptx"


def test_the_framework_extras_install_and_their_loaders_read_a_file(installed, tmp_path):
    """``pip install "readlens[langchain,llamaindex]"``: every pin of the package and its two extras is
    resolved, offline, against what is installed, and the installed copy's loader and reader read a deck."""
    wheel = next((installed.parent.parent / "dist").glob("readlens-0.1.0-*.whl"))
    pip = [*PIP, "--python", str(installed / "python")]
    done = subprocess.run(
        [*pip, "install", "--no-index", f"{wheel}[{','.join(FRAMEWORKS)}]"], capture_output=True, text=True, timeout=600
    )
    assert done.returncode == 0, done.stderr[-3000:]
    script = (
        "import json, readers.integrations\n"
        "from readers.integrations.langchain import ReadLensLoader\n"
        "from readers.integrations.llamaindex import ReadLensReader\n"
        f"pages = ReadLensLoader({str(CORPUS / 'markitdown/test.pptx')!r}).load()\n"
        f"chunks = ReadLensReader(mode='chunk').load_data({str(CORPUS / 'markitdown/test.pptx')!r})\n"
        "print(json.dumps([readers.integrations.__file__, [doc.metadata['citation'] for doc in pages],"
        " chunks[0].metadata['citation']]))"
    )
    read = run(installed, tmp_path, "python", "-c", script)
    assert read.returncode == 0, read.stderr[-3000:]
    where, pages, chunk = json.loads(read.stdout)
    assert where.startswith(str(installed.parent))  # the installed copy
    assert pages == [f"test.pptx, slide {number}" for number in range(1, 7)] and chunk.startswith("test.pptx, slide")


def test_readlens_app_serves_the_app_until_stopped(installed, tmp_path):
    port = free_port()
    log = tmp_path / "app.log"
    env = {key: value for key, value in os.environ.items() if key != "PYTHONPATH"}
    env.update(
        READLENS_CACHE_DIR=str(tmp_path / "cache"),
        VISION_PROVIDER="none",
        GRADIO_SERVER_NAME="127.0.0.1",
        GRADIO_SERVER_PORT=str(port),
        GRADIO_ANALYTICS_ENABLED="False",
    )
    with open(log, "wb") as output:
        process = subprocess.Popen(
            [str(installed / "readlens"), "app"], cwd=tmp_path, env=env, stdout=output, stderr=subprocess.STDOUT
        )
    try:
        wait_until_up(f"http://127.0.0.1:{port}/", process, log)
    finally:
        process.send_signal(signal.SIGTERM)
        assert process.wait(60) == 0, log.read_text()[-3000:]


def test_readlens_mcp_serves_the_tools_over_stdio(installed, tmp_path):
    """An agent that starts its tools as a command: the six tools, and read_file answering."""
    from mcp import ClientSession, StdioServerParameters
    from mcp.client.stdio import stdio_client

    env = {key: value for key, value in os.environ.items() if key != "PYTHONPATH"}
    env.update(READLENS_CACHE_DIR=str(tmp_path / "cache"), VISION_PROVIDER="none", GRADIO_ANALYTICS_ENABLED="False")
    server = StdioServerParameters(command=str(installed / "readlens"), args=["mcp"], env=env, cwd=str(tmp_path))
    note = base64.b64encode(b"# Pond\n\nThe heron came back.\n").decode()

    async def session():
        with open(tmp_path / "mcp.log", "w") as errors:
            async with stdio_client(server, errlog=errors) as (read, write), ClientSession(read, write) as client:
                await client.initialize()
                tools = await client.list_tools()
                answer = await client.call_tool("read_file", {"file_base64": note, "file_name": "pond.md"})
                return {tool.name for tool in tools.tools}, answer

    names, answer = asyncio.run(session())
    assert names == {"read_file", "render_page", "describe", "transcribe", "outline", "find"}
    assert not answer.isError and "The heron came back." in answer.content[0].text
