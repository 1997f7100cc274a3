"""Reading a collection (``python -m readers batch``): records, outputs and resume, engines, the
run loop (see ``run``), its progress, and the records as a Ray Data dataset (``ray_dataset``)."""

from .dataset import ray_dataset

__all__ = ["ray_dataset"]
