"""What the tests and the benchmarks share, so that neither imports the other (``tests/test_layers.py``
holds that): the generated files (``testkit.fixtures``), the stand-in vision and transcription
service (``testkit.fake_openai``), the app as ``python app.py`` runs it and the browser that drives it
(``testkit.server``), processes as /proc shows them, and the measures a benchmark scores by and a test
checks (``groundtruth``, ``icdar_metric``, ``page_checks``, ``placement``, ``word_diff``) and the tables'
validation set (``validation``)."""

import os
from pathlib import Path

os.environ.setdefault("GRADIO_ANALYTICS_ENABLED", "False")  # before anything imports Gradio: nothing calls home

from readers import Settings

ROOT = Path(__file__).resolve().parent.parent
CORPUS = ROOT / "tests" / "corpus"  # copies of other projects' test files: see its SOURCES.md


def make_settings(cache_dir: Path, **overrides) -> Settings:
    """Settings for a test or a benchmark: nothing from the developer's environment, a private cache."""
    return Settings(**{"cache_dir": cache_dir, "vision_provider": "none", **overrides})
