"""The page engines under faults (issue 33): a caller's script is never run again by the PDF
workers, through real processes."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap

from tests.conftest import BOUNDED_SECONDS, CORPUS, ROOT


def test_a_script_without_a_main_guard_runs_once_after_a_web_page_and_a_pdf(tmp_path):
    """After a web page the warm Chromium's thread is alive, so the PDF's workers come from a fork
    server: neither it nor they may run the caller's script again."""
    (tmp_path / "page.html").write_text("<html><body><h1>Hello</h1><p>A page of words.</p></body></html>")
    (tmp_path / "script.py").write_text(
        textwrap.dedent(f"""\
            import os
            from readers import read_file

            with open({str(tmp_path / "runs.txt")!r}, "a") as runs:
                runs.write(f"{{os.getpid()}}\\n")
            print(read_file({str(tmp_path / "page.html")!r}).pages[0].text.splitlines()[0])
            print(read_file({str(CORPUS / "markitdown/test.pdf")!r}).page_count)
            """)
    )
    env = {**os.environ, "PYTHONPATH": str(ROOT), "READLENS_CACHE_DIR": str(tmp_path / "cache")}
    run = subprocess.run(
        [sys.executable, "script.py"], cwd=tmp_path, env=env, capture_output=True, text=True, timeout=BOUNDED_SECONDS
    )
    assert run.returncode == 0, run.stderr
    assert run.stdout.split() == ["#", "Hello", "1"]
    assert len((tmp_path / "runs.txt").read_text().split()) == 1, "the script ran again in a worker"
