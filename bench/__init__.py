"""Benchmarks: ``python -m bench [topic ...]`` runs ``main()`` of each ``bench/bench_<topic>.py``."""
