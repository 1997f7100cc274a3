"""Leaves: one module per kind, each with one ``read(job) -> Reading``. Only the registry
(``readers.kinds.reader``) imports them, and only the one a file needs; they import the engines
below them (``pdf``, ``office``, ``markup``, ``intake``), never each other."""
