"""What the model receives from a ``Reading``: its pages sent as one PDF (``document``), tokens
counted offline (``tokens``), the chunks a retriever indexes (``chunks``, cut by ``blocks`` and
packed by ``packing``), where a piece comes from in words (``citations``), answers within a token
budget (``budget``), a reading's outline (``outline``), finding a query in it (``search``), and JSON
values (``serialize``). ``Reading``'s methods call into it; nothing here imports ``readers.models`` but
``serialize``, which ``Reading`` does not use."""
