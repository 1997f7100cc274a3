"""What the model receives from a ``Reading``: its pages sent as one PDF (``document``), tokens
counted offline (``tokens``), and JSON values (``serialize``). ``Reading``'s methods call into it;
nothing here imports ``readers.models`` but ``serialize``, which ``Reading`` does not use."""
