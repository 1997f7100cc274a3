"""Ray Data: a collection's records as a ``ray.data.Dataset`` (``ray_dataset``), for pipelines that
go on from ReadLens to their own steps (an embedding model, Ray Data's writers)."""

from __future__ import annotations

import os
from pathlib import Path

from ..intake.fetch import is_url
from ..options import ReadOptions
from ..settings import Settings
from .engines import RayEngine, read_records_in_process
from .outputs import collect
from .records import INSTALL_HINT, BatchError, Request, checked, content_hash


def _read(batch: dict, request: Request, settings: Settings):
    """Ray Data's UDF: the records of the batch's files as one Arrow table of the batch output's schema."""
    import pyarrow as pa

    from .outputs import parquet_schema

    records = []
    for path, file in zip(batch["path"], batch["file"]):
        sha256 = None if is_url(path) else content_hash(Path(path), settings)
        records += read_records_in_process(path, file, sha256, request, settings) or []
    return pa.Table.from_pylist(records, schema=parquet_schema(pa, bool(request.chunk_tokens)))


def ray_dataset(paths: list[str], *, chunks: int = 0, overlap: int = 0, settings: Settings | None = None, **options):
    """A ``ray.data.Dataset`` of the records ``python -m readers batch`` writes for every file under
    ``paths`` (``FIELDS``, or with ``chunks`` the ``CHUNK_FIELDS`` of chunks of at most that many
    tokens, repeating up to ``overlap``), read lazily by a ``map_batches`` UDF, one file per call.

    ``options`` are ``read_file``'s (``page_start``, ``page_end``, ``describe``, ``multimodal``).
    When Ray is not yet connected, it is as ``ray.init()`` connects (``RAY_ADDRESS``, else the
    cluster started on this machine, else a Ray of its own), with the readers shipped to the
    workers; a program that calls ``ray.init`` itself passes ``runtime_env={"py_modules":
    [readers]}`` or has the package installed on every node. ``settings`` (default: from the
    environment and ``.env``) go with the UDF; the Python packages, the files (at the same paths)
    and the cache are the nodes' own, as for ``--engine ray``. Every path is read, copies included; a
    dataset is not resumed (write its records, and read what is missing, as a pipeline does).
    Its columns have the batch output's Parquet types, whatever the first files hold.
    """
    try:
        import ray.data
    except ImportError:
        raise BatchError(f"ray_dataset needs Ray Data: {INSTALL_HINT}.") from None
    request = Request(ReadOptions(**options), chunks, overlap)
    settings = checked(paths, request, settings or Settings.from_env())
    files = [{"path": file if is_url(file) else os.path.abspath(file), "file": file} for file in collect(paths)]
    if not ray.is_initialized():
        ray.init(runtime_env=RayEngine.runtime_env())
    dataset = ray.data.from_items(files)
    # Ray's types know no function with more arguments than the batch, which fn_args gives it
    return dataset.map_batches(_read, batch_size=1, fn_args=(request, settings))  # type: ignore[arg-type]
